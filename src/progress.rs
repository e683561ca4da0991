//! The progress of a long command, on stderr: a bar redrawn in place with its count, rate and
//! ETA where stderr is a terminal (indicatif), and plain lines at a steady pace elsewhere (a
//! pipe, a log file, a scheduler's output), so that a run under `nohup`, Slurm or GNU
//! parallel says where it is too. Standard output keeps the command's results.
//!
//! `LUDUS_PROGRESS` chooses the style: `bar`, `lines` (every 10 s; `lines=SECS` for another
//! pace) or `off`. In lines, the first line says what is to be done and the last what was.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The pace of progress lines where stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// A line at the start, at most one every so often, and one at the end.
    Lines(Duration),
    /// Nothing.
    Off,
}

impl Style {
    /// The style for stderr: `LUDUS_PROGRESS` if it is set and valid, else a bar on a
    /// terminal and lines every [`LINE_EVERY`] elsewhere.
    pub fn for_stderr() -> Style {
        Style::for_stderr_every(LINE_EVERY)
    }

    /// [`Style::for_stderr`] with lines every `every` (a command's `--progress SECS`).
    pub fn for_stderr_every(every: Duration) -> Style {
        let chosen = std::env::var("LUDUS_PROGRESS")
            .ok()
            .and_then(|v| Style::parse(&v));
        chosen.unwrap_or(if std::io::stderr().is_terminal() {
            Style::Bar
        } else {
            Style::Lines(every)
        })
    }

    /// `bar`, `lines`, `lines=SECS` or `off`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Style> {
        match text.trim() {
            "bar" => Some(Style::Bar),
            "lines" => Some(Style::Lines(LINE_EVERY)),
            "off" => Some(Style::Off),
            other => {
                let secs: f64 = other.strip_prefix("lines=")?.parse().ok()?;
                (secs.is_finite() && secs >= 0.0)
                    .then(|| Style::Lines(Duration::from_secs_f64(secs)))
            }
        }
    }
}

/// The progress of one job: `done` of `total` units (or a count without a total), with a
/// note that says more (the current item, a score).
pub struct Progress {
    label: String,
    unit: String,
    total: Option<u64>,
    done: u64,
    /// Units done before this sitting (a resumed run): the ETA counts only the pace since.
    resumed: u64,
    note: String,
    style: Style,
    started: Instant,
    last_line: Instant,
    bar: Option<ProgressBar>,
    out: Box<dyn Write + Send>,
}

impl Progress {
    /// Progress of `label` on stderr, in [`Style::for_stderr`]: `total` units of `unit` (a
    /// plural noun: "positions") when known.
    pub fn stderr(label: &str, unit: &str, total: Option<u64>) -> Progress {
        Progress::to(
            Box::new(std::io::stderr()),
            Style::for_stderr(),
            label,
            unit,
            total,
        )
    }

    /// [`Progress::stderr`] with lines every `every` where stderr is not a terminal.
    pub fn stderr_every(label: &str, unit: &str, total: Option<u64>, every: Duration) -> Progress {
        let style = Style::for_stderr_every(every);
        Progress::to(Box::new(std::io::stderr()), style, label, unit, total)
    }

    /// Progress written to `out` in `style` (a bar always draws on stderr).
    pub fn to(
        out: Box<dyn Write + Send>,
        style: Style,
        label: &str,
        unit: &str,
        total: Option<u64>,
    ) -> Progress {
        let bar = (style == Style::Bar).then(|| new_bar(label, total));
        let now = Instant::now();
        let mut progress = Progress {
            label: label.to_string(),
            unit: unit.to_string(),
            total,
            done: 0,
            resumed: 0,
            note: String::new(),
            style,
            started: now,
            last_line: now,
            bar,
            out,
        };
        if let (Style::Lines(_), Some(total)) = (style, total) {
            let line = format!("{}: {total} {} to do", progress.label, progress.unit);
            progress.write(&line);
        }
        progress
    }

    /// Starts from `done` units finished before (a resumed run).
    pub fn resume_at(&mut self, done: u64) {
        self.done = done;
        self.resumed = done;
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.reset_eta();
        }
    }

    /// `done` units are finished now.
    pub fn set(&mut self, done: u64) {
        self.done = done;
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
        self.tick();
    }

    /// `done` units are finished, and the note says `note`: one line at most for both.
    pub fn update(&mut self, done: u64, note: &str) {
        self.set_note(note);
        self.set(done);
    }

    /// One more unit is finished.
    pub fn inc(&mut self) {
        self.set(self.done + 1);
    }

    /// Says more beside the count (the item under way, a running score).
    pub fn note(&mut self, note: &str) {
        self.set_note(note);
        self.tick();
    }

    /// Keeps `note` for the next line and the bar's message.
    fn set_note(&mut self, note: &str) {
        self.note = note.to_string();
        if let Some(bar) = &self.bar {
            bar.set_message(self.bar_message());
        }
    }

    /// A line of its own, above the bar on a terminal (as a plain line where the bar cannot
    /// draw: `LUDUS_PROGRESS=bar` in a pipe).
    pub fn println(&mut self, line: &str) {
        match (&self.bar, self.style) {
            (Some(bar), _) if !bar.is_hidden() => bar.println(line),
            (Some(_), _) | (None, Style::Lines(_)) => self.write(line),
            (None, _) => {}
        }
    }

    /// Ends the progress: the bar is cleared; in lines, a last line says what was done.
    pub fn finish(mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if let Style::Lines(_) = self.style {
            let line = format!(
                "{}: {} in {}",
                self.label,
                self.count(),
                duration(self.secs())
            );
            self.write(&line);
        }
    }

    /// In lines, a line when the pace says one is due.
    fn tick(&mut self) {
        if let Style::Lines(every) = self.style
            && self.last_line.elapsed() >= every
        {
            self.last_line = Instant::now();
            let line = self.status_line();
            self.write(&line);
        }
    }

    /// `analyse: 12 of 80 positions (15 %), 1m02s, ETA 5m10s, game 3`.
    pub fn status_line(&self) -> String {
        let secs = self.secs();
        let mut text = format!("{}: {}", self.label, self.count());
        if let Some(total) = self.total.filter(|&t| t > 0) {
            text += &format!(" ({:.0} %)", self.done as f64 * 100.0 / total as f64);
        }
        text += &format!(", {}", duration(secs));
        if let Some(eta) = self.eta(secs) {
            text += &format!(", ETA {}", duration(eta));
        } else if self.total.is_none() && secs > 0.0 {
            text += &format!(", {:.1} {}/s", self.done as f64 / secs, self.unit);
        }
        if !self.note.is_empty() {
            text += &format!(", {}", self.note);
        }
        text
    }

    /// `12 of 80 positions` or `12 positions`.
    fn count(&self) -> String {
        match self.total {
            Some(total) => format!("{} of {total} {}", self.done, self.unit),
            None => format!("{} {}", self.done, self.unit),
        }
    }

    /// Seconds left at this sitting's pace, once some of the work is done.
    fn eta(&self, secs: f64) -> Option<f64> {
        let total = self.total?;
        let since = self.done.saturating_sub(self.resumed);
        (since > 0 && secs > 0.0)
            .then(|| secs / since as f64 * total.saturating_sub(self.done) as f64)
    }

    fn secs(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    fn bar_message(&self) -> String {
        if self.note.is_empty() {
            self.unit.clone()
        } else {
            format!("{}, {}", self.unit, self.note)
        }
    }

    /// Writes a line; a closed stderr is not the command's failure, so errors are dropped.
    fn write(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A bar on stderr, cut to the terminal's width: `analyse: [####>-----] 12/80 (15%), 1m,
/// ETA 5m, positions, game 3`.
fn new_bar(label: &str, total: Option<u64>) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let template = if total.is_some() {
        "{prefix}: [{bar:20}] {pos}/{len} ({percent}%), {elapsed}, ETA {eta}, {wide_msg}"
    } else {
        "{prefix}: {spinner} {pos}, {elapsed}, {wide_msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("#>-"));
    }
    bar.set_prefix(label.to_string());
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The units done that a progress line of `label` says (`datagen: 40 of 380 games …` → 40),
/// for a program that reads another's log (the learning loop reads its children's).
pub fn done_in_line(line: &str, label: &str) -> Option<u64> {
    let rest = line.strip_prefix(label)?.strip_prefix(": ")?;
    let (done, rest) = rest.split_once(' ')?;
    rest.starts_with("of ").then(|| done.parse().ok())?
}

/// `1m05s`, or `2h03m` from an hour on.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A `Write` whose bytes the test reads afterwards.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().map(|b| b.clone()).unwrap_or_default())
                .unwrap_or_default()
        }
    }

    #[test]
    fn the_style_comes_from_its_words() {
        assert_eq!(Style::parse("bar"), Some(Style::Bar));
        assert_eq!(Style::parse(" off "), Some(Style::Off));
        assert_eq!(Style::parse("lines"), Some(Style::Lines(LINE_EVERY)));
        assert_eq!(Style::parse("lines=0"), Some(Style::Lines(Duration::ZERO)));
        assert_eq!(
            Style::parse("lines=2.5"),
            Some(Style::Lines(Duration::from_millis(2500)))
        );
        assert_eq!(Style::parse("lines=-1"), None);
        assert_eq!(Style::parse("lines=x"), None);
        assert_eq!(Style::parse("fancy"), None);
    }

    #[test]
    fn lines_say_what_is_to_do_how_far_and_what_was_done() {
        let out = Shared::default();
        let mut p = Progress::to(
            Box::new(out.clone()),
            Style::Lines(Duration::ZERO),
            "analyse",
            "positions",
            Some(4),
        );
        p.inc();
        p.note("game 2");
        p.set(4);
        p.println("a line of its own");
        p.finish();
        let text = out.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert_eq!(lines[0], "analyse: 4 positions to do");
        assert!(
            lines[1].starts_with("analyse: 1 of 4 positions (25 %), 0m00s, ETA 0m00s"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("analyse: 1 of 4 positions (25 %)")
                && lines[2].ends_with(", game 2"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].starts_with("analyse: 4 of 4 positions (100 %)"),
            "{}",
            lines[3]
        );
        assert_eq!(lines[4], "a line of its own");
        assert_eq!(lines[5], "analyse: 4 of 4 positions in 0m00s");
    }

    #[test]
    fn the_pace_holds_lines_back_and_the_end_is_always_said() {
        let out = Shared::default();
        let mut p = Progress::to(
            Box::new(out.clone()),
            Style::Lines(Duration::from_secs(3600)),
            "solve check",
            "claims",
            None,
        );
        for _ in 0..1000 {
            p.inc();
        }
        p.finish();
        let text = out.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "{text}");
        assert!(
            lines[0].starts_with("solve check: 1000 claims in 0m0"),
            "{text}"
        );
    }

    #[test]
    fn a_resumed_run_counts_its_eta_from_this_sittings_pace() {
        let out = Shared::default();
        let mut p = Progress::to(Box::new(out), Style::Off, "datagen", "games", Some(100));
        p.resume_at(50);
        assert_eq!(p.eta(10.0), None, "nothing done yet in this sitting");
        p.set(60);
        // 10 games in 10 s: the 40 left take 40 s (not 10 s / 60 × 40).
        assert_eq!(p.eta(10.0), Some(40.0));
        assert!(
            p.status_line()
                .starts_with("datagen: 60 of 100 games (60 %)")
        );
    }

    #[test]
    fn off_writes_nothing() {
        let out = Shared::default();
        let mut p = Progress::to(Box::new(out.clone()), Style::Off, "match", "games", Some(2));
        p.inc();
        p.println("x");
        p.finish();
        assert_eq!(out.text(), "");
    }

    #[test]
    fn a_line_gives_back_its_count() {
        let out = Shared::default();
        let mut p = Progress::to(Box::new(out), Style::Off, "datagen", "games", Some(380));
        p.set(40);
        assert_eq!(done_in_line(&p.status_line(), "datagen"), Some(40));
        assert_eq!(
            done_in_line("datagen: 380 of 380 games in 5m00s", "datagen"),
            Some(380)
        );
        assert_eq!(done_in_line("datagen: 380 games to do", "datagen"), None);
        assert_eq!(
            done_in_line("datagen game=sight …: 500 games, 380 to play", "datagen"),
            None
        );
    }

    #[test]
    fn durations_read_as_minutes_then_hours() {
        assert_eq!(duration(0.4), "0m00s");
        assert_eq!(duration(65.0), "1m05s");
        assert_eq!(duration(3599.4), "59m59s");
        assert_eq!(duration(7380.0), "2h03m");
    }
}
