//! Replays every ```` ```transcript ```` block of `protocol.md` and `README.md` against the
//! built binary.
//!
//! In a block, `> text` is a line sent to the engine and `< text` a line it must print (the
//! text after `< ` exactly, leading spaces included). The lines expected after an input line
//! are those up to the next input line. An expected token `*` matches any single token; a line
//! without `*` must match exactly. An expected line `…` (README's shortened handshake) stands
//! for any lines up to the next expected one, which must follow it. Each block runs in a fresh
//! process; afterwards `isready` must be answered by `readyok` at once (so nothing unexpected
//! was printed) and `quit` must end the process with status 0.

use crate::common::process;

use std::time::Duration;

use crate::common::process::Engine;

/// Fewest transcript blocks protocol.md is expected to hold (guards against a formatting slip
/// that would silently skip them).
const MIN_BLOCKS: usize = 6;
/// The expected line that stands for any lines up to the next expected one.
const ELLIPSIS: &str = "…";

/// One step of a transcript: a line to send and the lines expected in answer.
#[derive(Debug)]
struct Step {
    /// 1-based line number of the input line in protocol.md.
    line_no: usize,
    /// The line sent.
    input: String,
    /// The lines expected before the next input, with their line numbers in the file.
    expected: Vec<(usize, String)>,
}

/// One ```` ```transcript ```` block.
#[derive(Debug)]
struct Block {
    /// The file it comes from.
    source: &'static str,
    /// 1-based number of the block in its file.
    number: usize,
    /// 1-based line number of the opening fence.
    line_no: usize,
    /// Its steps, in order.
    steps: Vec<Step>,
}

/// Parses the transcript blocks of a markdown text (the file `source`); panics on a
/// malformed block.
fn parse_transcripts(text: &str, source: &'static str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        match current.as_mut() {
            None => {
                if raw.trim_end() == "```transcript" {
                    current = Some(Block {
                        source,
                        number: blocks.len() + 1,
                        line_no,
                        steps: Vec::new(),
                    });
                }
            }
            Some(block) => {
                if raw.trim_end() == "```" {
                    let done = current.take().expect("a block is open");
                    assert!(
                        !done.steps.is_empty(),
                        "transcript block {} ({} line {}) has no input line",
                        done.number,
                        source,
                        done.line_no
                    );
                    blocks.push(done);
                } else if let Some(input) = raw.strip_prefix("> ") {
                    block.steps.push(Step {
                        line_no,
                        input: input.to_string(),
                        expected: Vec::new(),
                    });
                } else if let Some(output) = raw.strip_prefix("< ") {
                    let step = block.steps.last_mut().unwrap_or_else(|| {
                        panic!(
                            "transcript block {}: {} line {line_no} expects output \
                             before any input",
                            block.number, source
                        )
                    });
                    step.expected.push((line_no, output.to_string()));
                } else {
                    panic!(
                        "transcript block {}: {} line {line_no} is neither '> input' \
                         nor '< output': {raw:?}",
                        block.number, source
                    );
                }
            }
        }
    }
    assert!(
        current.is_none(),
        "a transcript block of {source} is not closed"
    );
    blocks
}

/// Whether `actual` is what `expected` describes: exactly equal, or, when `expected` has a
/// `*` token, equal token by token with `*` matching any single token.
fn line_matches(expected: &str, actual: &str) -> bool {
    if !expected.split(' ').any(|t| t == "*") {
        return expected == actual;
    }
    let want: Vec<&str> = expected.split(' ').collect();
    let got: Vec<&str> = actual.split(' ').collect();
    want.len() == got.len() && want.iter().zip(&got).all(|(w, g)| *w == "*" || w == g)
}

/// Replays one block in a fresh engine process, waiting at most `timeout` for each line.
fn replay(block: &Block, timeout: Duration) {
    let mut engine = Engine::spawn().showing_evaluation();
    for step in &block.steps {
        engine.send(&step.input);
        let mut skipping = false;
        for (line_no, expected) in &step.expected {
            if expected == ELLIPSIS {
                skipping = true;
                continue;
            }
            let what = format!(
                "block {} {} line {line_no}: '{expected}' (after '{}', line {})",
                block.number, block.source, step.input, step.line_no
            );
            let mut actual = engine.read_line_within(timeout, &what);
            while skipping && !line_matches(expected, &actual) {
                actual = engine.read_line_within(timeout, &what);
            }
            skipping = false;
            assert!(
                line_matches(expected, &actual),
                "transcript block {} ({} line {}), after input '{}' (line {}): \
                 expected line {line_no}\n  expected: {expected:?}\n  actual:   {actual:?}{}",
                block.number,
                block.source,
                block.line_no,
                step.input,
                step.line_no,
                engine.context()
            );
        }
    }
    // A block that ends with `quit` must have ended the process; any other is checked for
    // extra output and then quit.
    if block.steps.last().is_some_and(|s| s.input == "quit") {
        let rest = engine.read_to_end_within(timeout);
        assert!(
            rest.is_empty(),
            "transcript block {} ({} line {}): output after quit: {rest:?}",
            block.number,
            block.source,
            block.line_no
        );
    } else {
        engine.send("isready");
        let what = format!("readyok after block {}", block.number);
        let next = engine.read_line_within(timeout, &what);
        assert_eq!(
            next,
            "readyok",
            "transcript block {} ({} line {}): extra output after the last expected line{}",
            block.number,
            block.source,
            block.line_no,
            engine.context()
        );
        engine.send("quit");
    }
    let status = engine.wait_exit(Duration::from_secs(10));
    assert_eq!(
        status.code(),
        Some(0),
        "transcript block {} ({} line {}): exit status after quit{}",
        block.number,
        block.source,
        block.line_no,
        engine.context()
    );
}

#[test]
fn wildcard_matching_is_token_by_token() {
    assert!(line_matches("id name ludus *", "id name ludus 0.4.0"));
    assert!(!line_matches("id name ludus *", "id name ludus 0.1 .0"));
    assert!(!line_matches("id name ludus *", "id name ludus"));
    assert!(line_matches(" 3  .---.", " 3  .---."));
    assert!(!line_matches(" 3  .---.", "3  .---."));
    assert!(!line_matches("readyok", "readyok "));
}

#[test]
fn parser_reads_inputs_outputs_and_leading_spaces() {
    let text = "intro\n```transcript\n> d\n<  3  .---.\n< x\n> isready\n< readyok\n```\n\
                ```\n> not a transcript\n```\n";
    let blocks = parse_transcripts(text, "test");
    assert_eq!(blocks.len(), 1);
    let steps = &blocks[0].steps;
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].input, "d");
    assert_eq!(
        steps[0].expected,
        vec![(4, " 3  .---.".to_string()), (5, "x".to_string())]
    );
    assert_eq!(steps[1].input, "isready");
    assert_eq!(steps[1].expected, vec![(7, "readyok".to_string())]);
}

/// How replaying the single transcript block of `text` fails: the start of its panic message,
/// or `None` when it passes. Lines get the suite's hang bound ([`process::DEFAULT_TIMEOUT`]):
/// a short one made a right transcript fail on a loaded machine.
fn replay_failure(text: &str) -> Option<String> {
    let blocks = parse_transcripts(text, "test");
    assert_eq!(blocks.len(), 1);
    let panic = std::panic::catch_unwind(|| replay(&blocks[0], process::DEFAULT_TIMEOUT)).err()?;
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    Some(message)
}

/// The failure of a line that came but differs from the one expected.
const WRONG_LINE: &str = "expected line";
/// The failure of a line that never came (the hang bound ran out).
const NO_LINE: &str = "waiting ";
/// The failure of output the block does not expect.
const EXTRA_OUTPUT: &str = "extra output after the last expected line";

/// Asserts that replaying `text` fails with a message containing `kind`.
fn assert_replay_fails_with(text: &str, kind: &str) {
    match replay_failure(text) {
        Some(message) => assert!(message.contains(kind), "{kind:?} not in {message}"),
        None => panic!("the replay passed:\n{text}"),
    }
}

#[test]
fn replay_accepts_a_right_transcript() {
    assert_eq!(
        replay_failure(
            "```transcript\n> isready\n< readyok\n> query fen\n< response 5:x5/x5/x5/x5/x5 w\n```\n"
        ),
        None
    );
}

#[test]
fn replay_rejects_a_wrong_line() {
    assert_replay_fails_with(
        "```transcript\n> query fen\n< response 5:x5/x5/x5/x5/x5 b\n```\n",
        WRONG_LINE,
    );
}

#[test]
fn replay_rejects_missing_expected_lines() {
    // Only the first line of the handshake is expected: the rest is extra output.
    assert_replay_fails_with(
        "```transcript\n> ugi\n< id name ludus *\n```\n",
        EXTRA_OUTPUT,
    );
}

#[test]
fn an_ellipsis_skips_lines_up_to_the_next_expected_one() {
    assert_eq!(
        replay_failure("```transcript\n> ugi\n< id name ludus *\n< …\n< ugiok\n```\n"),
        None
    );
    // The line after the ellipsis must still come.
    assert_replay_fails_with(
        "```transcript\n> ugi\n< id name ludus *\n< …\n< readyok\n```\n",
        NO_LINE,
    );
}

#[test]
fn replay_rejects_output_that_never_comes() {
    assert_replay_fails_with(
        "```transcript\n> isready\n< readyok\n< readyok\n```\n",
        NO_LINE,
    );
}

/// Replays every transcript block of the file `name` (at the crate root), side by side, and
/// checks there are at least `min_blocks`.
fn replay_file(name: &'static str, min_blocks: usize) {
    let path = format!("{}/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let blocks = parse_transcripts(&text, name);
    assert!(
        blocks.len() >= min_blocks,
        "found {} transcript blocks in {name}, expected at least {min_blocks}",
        blocks.len()
    );
    // Each block gets its own process; run them side by side.
    std::thread::scope(|scope| {
        let handles: Vec<_> = blocks
            .iter()
            .map(|block| {
                (
                    block.number,
                    scope.spawn(|| replay(block, process::DEFAULT_TIMEOUT)),
                )
            })
            .collect();
        let mut failed = Vec::new();
        for (number, handle) in handles {
            if handle.join().is_err() {
                failed.push(number);
            }
        }
        assert!(
            failed.is_empty(),
            "{name}: transcript blocks failed: {failed:?}"
        );
    });
}

#[test]
fn protocol_md_transcripts_replay_exactly() {
    replay_file("protocol.md", MIN_BLOCKS);
}

#[test]
fn readme_session_replays_exactly() {
    replay_file("README.md", 1);
}
