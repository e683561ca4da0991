//! HTTP/1.1 for `ludus web`, one request per connection: a request's head and body are read
//! within size limits and a time limit, and every answer closes the connection.
//!
//! The head (request line and headers) may hold [`Limits::head`] bytes and the body
//! [`Limits::body`]; both must arrive within [`Limits::timeout`] of the connection's start,
//! however slowly the client drips them. A request over a limit is refused (431, 413, 408)
//! without reading more than the limit, so a client cannot make the server hold more memory
//! or a thread for longer. Only `Content-Length` bodies are taken (411 otherwise).

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// Most header fields a request may have.
const MAX_HEADERS: usize = 64;

/// How long the rest of a refused request is read and dropped before the connection closes,
/// so that the refusal reaches the client instead of being lost to a connection reset.
const LINGER: Duration = Duration::from_secs(2);

/// What a request may be.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest head, request line and headers with their line ends, in bytes.
    pub head: usize,
    /// Largest body, in bytes.
    pub body: usize,
    /// Time from the connection's start to the request's last byte.
    pub timeout: Duration,
}

impl Limits {
    /// The server's limits: a 32 KiB head (browsers send a few hundred bytes, plus cookies),
    /// a 64 KiB body (the largest the page sends is a pasted position of at most 2000 moves,
    /// under 40 KB), and 5 seconds for the whole request.
    pub const SERVER: Limits = Limits {
        head: 32 * 1024,
        body: 64 * 1024,
        timeout: Duration::from_secs(5),
    };
}

/// A request read in full.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// The request target, e.g. `/api/state?x=1`.
    pub target: String,
    /// The header fields, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body (empty without `Content-Length`).
    pub body: Vec<u8>,
}

impl Request {
    /// The first header field named `name` (any case), trimmed.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    /// Every header field named `name` (any case), trimmed.
    pub fn headers_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    /// The target's path, without the query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }

    /// The value of the first query parameter called `name` (`?s=abc&c=d`), as sent: the
    /// server's parameters are plain ids, so nothing is percent-decoded.
    pub fn param(&self, name: &str) -> Option<&str> {
        let (_, query) = self.target.split_once('?')?;
        query
            .split('&')
            .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value)
    }
}

/// Why no request was read.
#[derive(Debug, PartialEq)]
pub enum ReadError {
    /// The client closed the connection or it failed: nothing to answer.
    Gone,
    /// The request is refused with this status and message.
    Refused(u16, String),
}

fn refused(status: u16, message: impl Into<String>) -> ReadError {
    ReadError::Refused(status, message.into())
}

fn head_too_large(limits: &Limits) -> ReadError {
    let message = format!("the request head is over {} KiB", limits.head / 1024);
    refused(431, message)
}

/// Reads one request from `stream` within `limits`.
pub fn read_request(stream: &mut TcpStream, limits: &Limits) -> Result<Request, ReadError> {
    let deadline = Instant::now() + limits.timeout;
    let mut buf = Vec::with_capacity(4096);
    let mut searched = 0;
    let head_len = 'head: loop {
        // One byte over the limit tells a long head from one that just fits.
        let room = (limits.head + 1).saturating_sub(buf.len());
        if read_some(stream, &mut buf, room, deadline)? == 0 {
            return Err(ReadError::Gone);
        }
        while let Some(end) = head_end(&buf, searched) {
            searched = end;
            if let Some(len) = parse_len(&buf[..end])? {
                break 'head len;
            }
        }
        // An end may start in the last two bytes and finish in the next read.
        searched = searched.max(buf.len().saturating_sub(2));
        if buf.len() > limits.head {
            return Err(head_too_large(limits));
        }
    };
    if head_len > limits.head {
        return Err(head_too_large(limits));
    }
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    parsed
        .parse(&buf[..head_len])
        .map_err(|e| refused(400, format!("bad request: {e}")))?;
    let (Some(method), Some(target)) = (parsed.method, parsed.path) else {
        return Err(refused(400, "bad request line"));
    };
    let request = Request {
        method: method.to_string(),
        target: target.to_string(),
        headers: parsed
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.to_string(),
                    String::from_utf8_lossy(h.value).into_owned(),
                )
            })
            .collect(),
        body: buf[head_len..].to_vec(),
    };
    read_body(stream, request, limits, deadline)
}

/// Where the head ends (after its empty line) if its end starts at or after `from`.
fn head_end(buf: &[u8], from: usize) -> Option<usize> {
    (from..buf.len()).find_map(|i| match (buf[i], buf.get(i + 1), buf.get(i + 2)) {
        (b'\n', Some(b'\n'), _) => Some(i + 2),
        (b'\n', Some(b'\r'), Some(b'\n')) => Some(i + 3),
        _ => None,
    })
}

/// The head's length if `buf` holds a whole head, `None` if more must come.
fn parse_len(buf: &[u8]) -> Result<Option<usize>, ReadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    match httparse::Request::new(&mut headers).parse(buf) {
        Ok(httparse::Status::Complete(len)) => Ok(Some(len)),
        Ok(httparse::Status::Partial) => Ok(None),
        Err(httparse::Error::TooManyHeaders) => Err(refused(
            431,
            format!("more than {MAX_HEADERS} header fields"),
        )),
        Err(e) => Err(refused(400, format!("bad request: {e}"))),
    }
}

/// Reads the body `Content-Length` announces (part of it may be in `request.body` already).
fn read_body(
    stream: &mut TcpStream,
    mut request: Request,
    limits: &Limits,
    deadline: Instant,
) -> Result<Request, ReadError> {
    if request.header("Transfer-Encoding").is_some() {
        return Err(refused(411, "send the body with Content-Length"));
    }
    let length = {
        let mut lengths = request
            .headers_named("Content-Length")
            .map(|v| v.parse::<u64>());
        match (lengths.next(), lengths.next()) {
            (None, _) => 0,
            (Some(Ok(n)), None) => n,
            _ => return Err(refused(400, "bad Content-Length")),
        }
    };
    let length = match usize::try_from(length) {
        Ok(n) if n <= limits.body => n,
        _ => {
            let message = format!("the body is over {} KiB", limits.body / 1024);
            return Err(refused(413, message));
        }
    };
    request.body.truncate(length);
    let expects = request.header("Expect");
    if request.body.len() < length
        && expects.is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        stream
            .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .map_err(|_| ReadError::Gone)?;
    }
    while request.body.len() < length {
        let room = length - request.body.len();
        if read_some(stream, &mut request.body, room, deadline)? == 0 {
            return Err(ReadError::Gone);
        }
    }
    Ok(request)
}

/// Appends what arrives (at most `room` bytes) to `buf`, waiting until `deadline` at most.
fn read_some(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    room: usize,
    deadline: Instant,
) -> Result<usize, ReadError> {
    let mut chunk = [0u8; 8192];
    let want = room.min(chunk.len());
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(refused(408, "the request took too long"));
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|_| ReadError::Gone)?;
        match stream.read(&mut chunk[..want]) {
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(refused(408, "the request took too long"));
            }
            Err(_) => return Err(ReadError::Gone),
        }
    }
}

/// The reason phrase of the statuses the server answers.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Writes a whole answer: status, `Content-Type`, `Cache-Control: no-store`,
/// `Connection: close`, and `body`.
pub fn respond(
    out: &mut impl Write,
    status: u16,
    content_type: &str,
    body: &str,
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    let mut all = head.into_bytes();
    all.extend_from_slice(body.as_bytes());
    out.write_all(&all)?;
    out.flush()
}

/// Answers a refused request with its status and message, then closes the connection after
/// reading what the client still sends for a short while.
pub fn refuse(mut stream: TcpStream, status: u16, message: &str) {
    if respond(
        &mut stream,
        status,
        "text/plain; charset=utf-8",
        &format!("{message}\n"),
    )
    .is_err()
    {
        return;
    }
    if stream.shutdown(Shutdown::Write).is_err() {
        return;
    }
    let until = Instant::now() + LINGER;
    let mut sink = [0u8; 8192];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut sink) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    const SMALL: Limits = Limits {
        head: 200,
        body: 10,
        timeout: Duration::from_millis(300),
    };

    /// What the server reads of a connection that sent `sent` and left the connection open.
    fn read(sent: &[u8], limits: Limits) -> Result<Request, ReadError> {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let mut client =
            TcpStream::connect(listener.local_addr().expect("an address")).expect("connects");
        client.write_all(sent).expect("sends");
        let (mut server, _) = listener.accept().expect("accepts");
        read_request(&mut server, &limits)
    }

    fn status(result: Result<Request, ReadError>) -> u16 {
        match result {
            Ok(_) => 200,
            Err(ReadError::Refused(status, _)) => status,
            Err(ReadError::Gone) => 0,
        }
    }

    #[test]
    fn a_request_is_read_with_its_headers_and_body() {
        let request = read(
            b"POST /api/x?a=1 HTTP/1.1\r\nHost: localhost\r\ncontent-length: 5\r\n\r\nhello",
            SMALL,
        )
        .expect("a request");
        assert_eq!(request.method, "POST");
        assert_eq!(request.path(), "/api/x");
        assert_eq!(request.header("Host"), Some("localhost"));
        assert_eq!(request.body, b"hello");
        assert_eq!(request.param("a"), Some("1"));
        assert_eq!(request.param("b"), None);
        let request = read(b"GET / HTTP/1.0\nHost: a\n\n", SMALL).expect("bare line feeds");
        assert_eq!((request.target.as_str(), request.body.len()), ("/", 0));
    }

    #[test]
    fn heads_end_at_the_first_empty_line() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\nbody", 0), Some(18));
        assert_eq!(head_end(b"GET / HTTP/1.1\n\nbody", 0), Some(16));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n\r", 0), None);
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n", 10), None);
    }

    #[test]
    fn requests_over_a_limit_or_malformed_are_refused() {
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(300));
        assert_eq!(status(read(long.as_bytes(), SMALL)), 431);
        let many: String = (0..70).map(|i| format!("X{i}:\r\n")).collect();
        let many = format!("GET / HTTP/1.1\r\n{many}\r\n");
        let roomy = Limits {
            head: 4096,
            ..SMALL
        };
        assert_eq!(status(read(many.as_bytes(), roomy)), 431);
        let body = b"POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n";
        assert_eq!(status(read(body, SMALL)), 413);
        let huge = b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n";
        assert_eq!(status(read(huge, SMALL)), 400);
        let two = b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n";
        assert_eq!(status(read(two, SMALL)), 400);
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert_eq!(status(read(chunked, SMALL)), 411);
        assert_eq!(status(read(b"HELLO\r\n\r\n", SMALL)), 400);
    }

    #[test]
    fn unfinished_requests_time_out() {
        assert_eq!(status(read(b"GET / HTTP/1.1\r\nHost: a", SMALL)), 408);
        let short_body = b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab";
        assert_eq!(status(read(short_body, SMALL)), 408);
    }

    #[test]
    fn a_client_that_waits_for_100_continue_gets_it() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let mut client =
            TcpStream::connect(listener.local_addr().expect("an address")).expect("connects");
        client
            .write_all(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            .expect("sends");
        let (mut server, _) = listener.accept().expect("accepts");
        let reader = std::thread::spawn(move || read_request(&mut server, &SMALL));
        let mut interim = [0u8; 25];
        client.read_exact(&mut interim).expect("an interim answer");
        assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
        client.write_all(b"ok").expect("sends");
        let request = reader.join().expect("no panic").expect("a request");
        assert_eq!(request.body, b"ok");
    }

    #[test]
    fn answers_close_the_connection() {
        let mut out = Vec::new();
        respond(&mut out, 413, "text/plain", "too big\n").expect("written");
        let text = String::from_utf8(out).expect("text");
        assert!(
            text.starts_with("HTTP/1.1 413 Content Too Large\r\n"),
            "{text}"
        );
        assert!(text.contains("\r\nContent-Length: 8\r\n"), "{text}");
        assert!(
            text.ends_with("Connection: close\r\n\r\ntoo big\n"),
            "{text}"
        );
    }
}
