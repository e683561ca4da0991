//! The training-data file of `ludus datagen`: a header naming the run, then one record per
//! finished game, each appended whole, so that a file cut short by a kill loses at most the
//! game being written (reading stops before it, and a resumed run cuts it off).
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! file    = magic "LUDUSDG2" (8 bytes), u16 n, n bytes of UTF-8 identity, record*
//! record  = u32 body length, body, u64 check
//! check   = FNV-1a (64 bit) of the body
//! body    = u32 game index, u8 result, u16 count, position × count
//! result  = 0 draw, 1 player one won, 2 player two won
//! position= u8 n, n bytes of the position in the game's notation (FEN),
//!           u8 kind (0 score in the game's unit, 1 mate in moves),
//!           i16 score (side to move's view; a mate: +N wins in N moves, -N is mated in N)
//! ```
//!
//! The identity (`game=sight options=none nodes=5000 random-plies=4 seed=1`) says which run
//! made the file: a resume or a merge of files of different runs is refused. Every record
//! carries the checksum of its body, so a damaged byte anywhere in a game is found when the
//! file is read. Files of the first format (`LUDUSDG1`, records without a checksum) are still
//! read; their positions are checked by the rules only ([`super::check`]).

use std::io::{self, Read, Write};

use crate::files::fnv1a64;

/// The first bytes of a datagen file.
pub const MAGIC: &[u8; 8] = b"LUDUSDG2";

/// The first bytes of a datagen file of the first format, whose records have no checksum.
pub const MAGIC_V1: &[u8; 8] = b"LUDUSDG1";

/// How a recorded game ended: the referee's result (`1-0`, `0-1`, `1/2-1/2`).
pub use crate::record::game::GameResult;

/// A search score as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// In the game's unit, from the side to move's view.
    Score(i16),
    /// A proven result in moves (positive: the side to move wins).
    Mate(i16),
}

/// One searched position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position in the game's notation.
    pub fen: String,
    /// The search's score of it.
    pub score: Recorded,
}

/// One game of a datagen file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    /// The game's index in the run (seeds its opening; shards own indices).
    pub index: u32,
    /// How the game ended.
    pub result: GameResult,
    /// The positions the engine searched, in order.
    pub samples: Vec<Sample>,
}

/// Writes the file header (of the current format) with `identity`.
pub fn write_header(out: &mut dyn Write, identity: &str) -> io::Result<()> {
    let len = u16::try_from(identity.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "identity too long"))?;
    out.write_all(MAGIC)?;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(identity.as_bytes())
}

/// The bytes of one game's record (length prefix and checksum included).
pub fn encode(game: &GameData) -> Result<Vec<u8>, String> {
    let mut body = Vec::with_capacity(16 + 40 * game.samples.len());
    body.extend_from_slice(&game.index.to_le_bytes());
    body.push(match game.result {
        GameResult::Draw => 0,
        GameResult::P1Win => 1,
        GameResult::P2Win => 2,
    });
    let count = u16::try_from(game.samples.len()).map_err(|_| "a game of over 65,535 positions")?;
    body.extend_from_slice(&count.to_le_bytes());
    for s in &game.samples {
        let len = u8::try_from(s.fen.len())
            .map_err(|_| format!("a position over 255 bytes: {}", s.fen))?;
        body.push(len);
        body.extend_from_slice(s.fen.as_bytes());
        let (kind, value) = match s.score {
            Recorded::Score(v) => (0u8, v),
            Recorded::Mate(n) => (1u8, n),
        };
        body.push(kind);
        body.extend_from_slice(&value.to_le_bytes());
    }
    let mut record = Vec::with_capacity(body.len() + 12);
    record.extend_from_slice(&(body.len() as u32).to_le_bytes());
    record.extend_from_slice(&body);
    record.extend_from_slice(&fnv1a64(&body).to_le_bytes());
    Ok(record)
}

/// What a datagen file holds: its identity, its complete games, and the byte length up to
/// the end of the last complete one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// The run's identity from the header.
    pub identity: String,
    /// The complete games, in file order.
    pub games: Vec<GameData>,
    /// Bytes up to the end of the last complete game.
    pub complete_len: u64,
}

/// The largest body a record can have: its index, result and count, and 65,535 positions of
/// 255 bytes each with their scores. A length prefix beyond it is damage, not a game.
pub const MAX_BODY_BYTES: usize = 4 + 1 + 2 + (u16::MAX as usize) * (1 + 255 + 1 + 2);

/// Reads a datagen file's bytes. A record cut short at the end is left out
/// (`complete_len` stops before it); anything else malformed is an error naming the offset.
pub fn decode(bytes: &[u8]) -> Result<DataFile, String> {
    read_all(&mut &bytes[..])
}

/// Reads the whole of `input` (a datagen file), one record at a time ([`Decoder`]).
pub fn read_all(input: &mut dyn Read) -> Result<DataFile, String> {
    let mut decoder = Decoder::new(input)?;
    let mut games = Vec::new();
    while let Some(game) = decoder.next_game()? {
        games.push(game);
    }
    Ok(DataFile {
        complete_len: decoder.complete_len(),
        identity: decoder.identity,
        games,
    })
}

/// A datagen file read as a stream: the header first (a file that is not a datagen file is
/// refused after its first bytes), then one record at a time, so that only one game is ever
/// held. Errors name the offset of the record; a record cut short at the end ends the games
/// (the reader is left at the end of the last complete one, [`Decoder::complete_len`]).
pub struct Decoder<R> {
    input: R,
    identity: String,
    checked: bool,
    /// Bytes up to the end of the last complete record (or of the header).
    at: u64,
    /// Set once the end (or a record cut short) was read.
    ended: bool,
}

impl<R: Read> Decoder<R> {
    /// Reads the header of `input`: the magic and the identity.
    pub fn new(mut input: R) -> Result<Decoder<R>, String> {
        let not_data = || "not a ludus datagen file (no LUDUSDG2 or LUDUSDG1 header)".to_string();
        let cut = || "the header is cut short".to_string();
        let mut magic = [0u8; 8];
        if fill(&mut input, &mut magic)? < magic.len() {
            return Err(not_data());
        }
        let checked = match &magic {
            m if m == MAGIC => true,
            m if m == MAGIC_V1 => false,
            _ => return Err(not_data()),
        };
        let mut len = [0u8; 2];
        if fill(&mut input, &mut len)? < len.len() {
            return Err(cut());
        }
        let mut identity = vec![0u8; usize::from(u16::from_le_bytes(len))];
        if fill(&mut input, &mut identity)? < identity.len() {
            return Err(cut());
        }
        let identity = String::from_utf8(identity).map_err(|_| "the header is not UTF-8")?;
        Ok(Decoder {
            at: (magic.len() + len.len() + identity.len()) as u64,
            input,
            identity,
            checked,
            ended: false,
        })
    }

    /// A decoder of the records of a file whose header was read before, with `input` at byte
    /// `at`, the start of a record (its identity is then empty); `checked`: the file's records
    /// carry checksums (the current format).
    pub fn records(input: R, checked: bool, at: u64) -> Decoder<R> {
        Decoder {
            input,
            identity: String::new(),
            checked,
            at,
            ended: false,
        }
    }

    /// The run's identity from the header.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// Whether the records carry checksums (the current format, `LUDUSDG2`).
    pub fn checked(&self) -> bool {
        self.checked
    }

    /// Bytes up to the end of the last complete record read (the header's end before the
    /// first): where the next record starts.
    pub fn complete_len(&self) -> u64 {
        self.at
    }

    /// The next game; `None` at the end of the file or at a record cut short there.
    pub fn next_game(&mut self) -> Result<Option<GameData>, String> {
        if self.ended {
            return Ok(None);
        }
        let start = self.at;
        let mut len = [0u8; 4];
        let got = fill(&mut self.input, &mut len)?;
        if got < len.len() {
            self.ended = true;
            return Ok(None);
        }
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_BODY_BYTES {
            return Err(format!(
                "the game record at byte {start} is damaged: its length {len} is more than a \
                 game's record can have"
            ));
        }
        let mut body = vec![0u8; len];
        let mut check = [0u8; 8];
        let check_len = if self.checked { check.len() } else { 0 };
        if fill(&mut self.input, &mut body)? < len
            || fill(&mut self.input, &mut check[..check_len])? < check_len
        {
            self.ended = true;
            return Ok(None);
        }
        if self.checked && fnv1a64(&body) != u64::from_le_bytes(check) {
            return Err(format!(
                "the game record at byte {start} is damaged: its checksum does not match"
            ));
        }
        let game =
            decode_body(&body).map_err(|e| format!("the game record at byte {start}: {e}"))?;
        self.at = start + (4 + len + check_len) as u64;
        Ok(Some(game))
    }
}

/// Reads into `buf` until it is full or the input ends; how many bytes it got.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> Result<usize, String> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(got)
}

fn decode_body(body: &[u8]) -> Result<GameData, String> {
    let mut r = Reader { bytes: body, at: 0 };
    let short = |_| "cut short inside".to_string();
    let index = r.u32().map_err(short)?;
    let result = match r.u8().map_err(short)? {
        0 => GameResult::Draw,
        1 => GameResult::P1Win,
        2 => GameResult::P2Win,
        other => return Err(format!("result {other} is not 0, 1 or 2")),
    };
    let count = r.u16().map_err(short)?;
    let mut samples = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let n = r.u8().map_err(short)?;
        let fen = std::str::from_utf8(r.take(n as usize).map_err(short)?)
            .map_err(|_| "a position is not UTF-8".to_string())?
            .to_string();
        let kind = r.u8().map_err(short)?;
        let value = r.i16().map_err(short)?;
        let score = match kind {
            0 => Recorded::Score(value),
            1 => Recorded::Mate(value),
            other => return Err(format!("score kind {other} is not 0 or 1")),
        };
        samples.push(Sample { fen, score });
    }
    if r.at != body.len() {
        return Err(format!("{} bytes left over", body.len() - r.at));
    }
    Ok(GameData {
        index,
        result,
        samples,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ()> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(())?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, ()> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, ()> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn i16(&mut self) -> Result<i16, ()> {
        let b = self.take(2)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, ()> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u32) -> GameData {
        GameData {
            index,
            result: GameResult::P2Win,
            samples: vec![
                Sample {
                    fen: "5:x5/x5/x2,w,x2/x5/x5 b".into(),
                    score: Recorded::Score(-35),
                },
                Sample {
                    fen: "5:x5/x5/x2,w,x2/x,b,x3/x5 w".into(),
                    score: Recorded::Mate(-3),
                },
            ],
        }
    }

    #[test]
    fn games_read_back_and_a_cut_record_is_left_out() {
        let mut bytes = Vec::new();
        write_header(&mut bytes, "game=sight").unwrap();
        let header_len = bytes.len() as u64;
        bytes.extend(encode(&game(0)).unwrap());
        bytes.extend(encode(&game(3)).unwrap());
        let whole = bytes.len() as u64;
        let file = decode(&bytes).unwrap();
        assert_eq!(file.identity, "game=sight");
        assert_eq!(file.games, vec![game(0), game(3)]);
        assert_eq!(file.complete_len, whole);
        // Cut inside the second record: only the first is read.
        bytes.truncate(bytes.len() - 5);
        let cut = decode(&bytes).unwrap();
        assert_eq!(cut.games, vec![game(0)]);
        assert!(cut.complete_len > header_len && cut.complete_len < whole);
    }

    #[test]
    fn malformed_files_are_refused() {
        assert!(
            decode(b"NOTDATA!")
                .unwrap_err()
                .contains("not a ludus datagen file")
        );
        let mut bytes = Vec::new();
        write_header(&mut bytes, "x").unwrap();
        let mut record = encode(&game(1)).unwrap();
        record[8] = 7; // the result byte
        bytes.extend(record);
        assert!(
            decode(&bytes).unwrap_err().contains("is damaged"),
            "checksum first"
        );
    }

    #[test]
    fn a_damaged_byte_anywhere_in_a_game_is_found() {
        let mut clean = Vec::new();
        write_header(&mut clean, "game=sight").unwrap();
        let header_len = clean.len();
        clean.extend(encode(&game(0)).unwrap());
        for at in header_len + 4..clean.len() - 8 {
            let mut bytes = clean.clone();
            bytes[at] ^= 0x10;
            let err = decode(&bytes).unwrap_err();
            assert!(err.contains("is damaged"), "byte {at}: {err}");
        }
    }

    /// An endless datagen file: its header, then the same record again and again; counts the
    /// bytes taken from it.
    struct Endless {
        bytes: Vec<u8>,
        record: Vec<u8>,
        at: usize,
        taken: u64,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.at == self.bytes.len() {
                self.bytes = self.record.clone();
                self.at = 0;
            }
            let n = buf.len().min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            self.taken += n as u64;
            Ok(n)
        }
    }

    #[test]
    fn games_are_read_one_at_a_time() {
        let mut header = Vec::new();
        write_header(&mut header, "game=sight").unwrap();
        let record = encode(&game(7)).unwrap();
        let mut input = Endless {
            bytes: header.clone(),
            record: record.clone(),
            at: 0,
            taken: 0,
        };
        let mut decoder = Decoder::new(&mut input).unwrap();
        assert_eq!(decoder.identity(), "game=sight");
        for k in 1..=1000u64 {
            assert_eq!(decoder.next_game().unwrap(), Some(game(7)));
            assert_eq!(
                decoder.complete_len(),
                header.len() as u64 + k * record.len() as u64
            );
        }
        // Not a byte beyond the thousandth game was read.
        drop(decoder);
        assert_eq!(
            input.taken,
            header.len() as u64 + 1000 * record.len() as u64
        );
    }

    #[test]
    fn a_length_no_game_can_have_is_damage_not_a_cut() {
        let mut bytes = Vec::new();
        write_header(&mut bytes, "x").unwrap();
        let at = bytes.len();
        bytes.extend_from_slice(&(MAX_BODY_BYTES as u32 + 1).to_le_bytes());
        bytes.extend_from_slice(&[0; 64]);
        assert_eq!(
            decode(&bytes).unwrap_err(),
            format!(
                "the game record at byte {at} is damaged: its length {} is more than a game's \
                 record can have",
                MAX_BODY_BYTES + 1
            )
        );
        // The longest body a game can have is read as one (and here cut short).
        let mut cut = bytes[..at].to_vec();
        cut.extend_from_slice(&(MAX_BODY_BYTES as u32).to_le_bytes());
        cut.extend_from_slice(&[0; 64]);
        let file = decode(&cut).unwrap();
        assert_eq!((file.games.len(), file.complete_len), (0, at as u64));
    }

    #[test]
    fn files_of_the_first_format_are_still_read() {
        let mut bytes = MAGIC_V1.to_vec();
        bytes.extend_from_slice(&10u16.to_le_bytes());
        bytes.extend_from_slice(b"game=sight");
        let v2 = encode(&game(2)).unwrap();
        bytes.extend_from_slice(&v2[..v2.len() - 8]);
        let file = decode(&bytes).unwrap();
        assert_eq!(file.games, vec![game(2)]);
        assert_eq!(file.complete_len, bytes.len() as u64);
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] = 9; // the last score's high byte: read, the rules check catches more
        assert_eq!(decode(&damaged).unwrap().games.len(), 1);
    }
}
