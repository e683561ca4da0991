//! Statistics of the timed samples and their printing as Markdown tables.

fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

pub fn median(xs: &[f64]) -> f64 {
    let v = sorted(xs);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The nearest-rank percentile `q` (0 to 1).
pub fn percentile(xs: &[f64], q: f64) -> f64 {
    let v = sorted(xs);
    if v.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// The largest sample with its note, e.g. `5.78 ms (try 17, …)`.
pub fn worst_note(xs: &[f64], notes: &[String]) -> String {
    xs.iter()
        .zip(notes)
        .max_by(|a, b| a.0.total_cmp(b.0))
        .map_or("-".into(), |(x, note)| format!("{x:+.2} ms ({note})"))
}

pub fn min(xs: &[f64]) -> f64 {
    sorted(xs).first().copied().unwrap_or(f64::NAN)
}

pub fn max(xs: &[f64]) -> f64 {
    sorted(xs).last().copied().unwrap_or(f64::NAN)
}

/// `12345678` → `12,345,678`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate in millions per second.
pub fn mega(per_sec: f64) -> String {
    format!("{:.2} M", per_sec / 1e6)
}

/// A Markdown table with aligned columns, readable in a terminal and pasteable into docs.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    pub fn print(&self) {
        let width = |i: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
                .max(3)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = widths
                .iter()
                .enumerate()
                .map(|(i, &w)| {
                    let c = cells.get(i).map_or("", String::as_str);
                    format!("{c}{}", " ".repeat(w - c.chars().count()))
                })
                .collect();
            format!("| {} |", padded.join(" | "))
        };
        let mut out = line(&self.header);
        out.push('\n');
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        out.push_str(&format!("|-{}-|\n", rule.join("-|-")));
        for r in &self.rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        println!("{out}");
    }
}
