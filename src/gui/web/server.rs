//! The listening socket of `ludus web`: accepts connections on 127.0.0.1, gives each its own
//! thread (so a slow client never holds up another), reads its one request within
//! [`Limits::SERVER`] and hands it to the router with the connection for the answer.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use super::http::{self, Limits, ReadError, Request};

/// Most connections served at once (each open page holds one for its event stream); more
/// are answered 503 at once.
const MAX_CONNECTIONS: usize = 128;

/// How long writing to a client may block (a page that stops reading its event stream).
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What answers a request: given the request and the connection to write the answer to.
pub type Router = dyn Fn(Request, TcpStream) + Send + Sync;

/// A listening socket and its accepting thread.
pub struct Listener {
    addr: SocketAddr,
    stopping: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl Listener {
    /// Listens on 127.0.0.1:`port` (0: a free port) and answers every request with `router`.
    pub fn start(port: u16, router: Arc<Router>) -> Result<Listener, String> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("the server has no address: {e}"))?;
        let stopping = Arc::new(AtomicBool::new(false));
        let accept = {
            let stopping = Arc::clone(&stopping);
            std::thread::Builder::new()
                .name("web-accept".into())
                .spawn(move || accept_loop(&listener, &router, &stopping))
                .map_err(|e| format!("cannot start the server thread: {e}"))?
        };
        Ok(Listener {
            addr,
            stopping,
            accept: Some(accept),
        })
    }

    /// The address served, `127.0.0.1:PORT`.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the accepting thread ends (it ends only after [`Listener::stop`]).
    pub fn wait(&mut self) {
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }

    /// Stops accepting connections; those being served finish on their own.
    pub fn stop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Wake the accepting thread, which is waiting for a connection.
        match TcpStream::connect_timeout(&self.addr, Duration::from_secs(5)) {
            Ok(_) => self.wait(),
            Err(e) => log::warn!("ludus web: cannot wake the server thread: {e}"),
        }
    }
}

/// Counts a connection as open while it lives.
struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accept_loop(listener: &TcpListener, router: &Arc<Router>, stopping: &AtomicBool) {
    let open = Arc::new(AtomicUsize::new(0));
    while !stopping.load(Ordering::SeqCst) {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) => {
                log::warn!("ludus web: {e}");
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let mut stream = stream;
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = http::respond(&mut stream, 503, "text/plain", "too many connections\n");
            continue;
        }
        let guard = Open(Arc::clone(&open));
        let router = Arc::clone(router);
        let spawned = std::thread::Builder::new()
            .name("web-connection".into())
            .spawn(move || {
                serve(stream, &*router);
                drop(guard);
            });
        if let Err(e) = spawned {
            log::warn!("ludus web: cannot start a connection thread: {e}");
        }
    }
}

/// Reads the connection's request and answers it, or refuses it.
fn serve(mut stream: TcpStream, router: &Router) {
    if stream.set_write_timeout(Some(WRITE_TIMEOUT)).is_err() || stream.set_nodelay(true).is_err() {
        return;
    }
    match http::read_request(&mut stream, &Limits::SERVER) {
        Ok(request) => router(request, stream),
        Err(ReadError::Refused(status, message)) => http::refuse(stream, status, &message),
        Err(ReadError::Gone) => {}
    }
}
