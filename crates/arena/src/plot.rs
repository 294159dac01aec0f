//! Dependency-free SVG line charts: named series of (x, y) points, an optional shaded band per
//! series (Elo ± error), horizontal reference lines (SPRT bounds), ticks, labels, a legend and
//! a title. Used by `--plot FILE.svg` (LLR and Elo against games) and for SPSA trajectories.
//!
//! Non-finite values are skipped; an empty chart, a single point or a flat series still draw
//! a valid chart around a range widened to be non-degenerate.

use std::fmt::Write as _;
use std::path::Path;

use crate::state::Point;
use crate::stats::{Model, SprtConfig};

/// Colours given to series in order (Tableau 10), repeating after the last.
const PALETTE: [&str; 10] = [
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// Space around the plot area: left (y ticks and label), right (legend), top (title), bottom.
const MARGIN_LEFT: f64 = 72.0;
const MARGIN_RIGHT: f64 = 170.0;
const MARGIN_TOP: f64 = 44.0;
const MARGIN_BOTTOM: f64 = 56.0;
/// About this many ticks per axis.
const TICKS: f64 = 6.0;

/// One named line of a chart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Name shown in the legend.
    pub name: String,
    /// The points, joined in the given order.
    pub points: Vec<(f64, f64)>,
    /// A shaded band `(x, low, high)` drawn under the line, e.g. a confidence interval.
    pub band: Option<Vec<(f64, f64, f64)>>,
}

impl Series {
    /// A series without a band.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            name: name.into(),
            points,
            band: None,
        }
    }

    /// The same series with a shaded band `(x, low, high)`.
    pub fn with_band(mut self, band: Vec<(f64, f64, f64)>) -> Self {
        self.band = Some(band);
        self
    }
}

/// A line chart, rendered by [`Chart::to_svg`].
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// Label under the x axis.
    pub x_label: String,
    /// Label beside the y axis.
    pub y_label: String,
    /// The lines, drawn in order, each with its own colour.
    pub series: Vec<Series>,
    /// Dashed horizontal reference lines `(y, label)`, e.g. the SPRT bounds.
    pub hlines: Vec<(f64, String)>,
    /// A fixed x range `(min, max)`; `None` fits the data.
    pub x_range: Option<(f64, f64)>,
    /// A fixed y range `(min, max)`; `None` fits the data (with 5 % headroom). Lines leaving
    /// it are clipped at the plot's edge.
    pub y_range: Option<(f64, f64)>,
    /// Width of the image in pixels.
    pub width: f64,
    /// Height of the image in pixels.
    pub height: f64,
}

impl Default for Chart {
    fn default() -> Self {
        Chart {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            series: Vec::new(),
            hlines: Vec::new(),
            x_range: None,
            y_range: None,
            width: 900.0,
            height: 500.0,
        }
    }
}

/// A closed interval of data values mapped onto an interval of pixels.
#[derive(Debug, Clone, Copy)]
struct Axis {
    min: f64,
    max: f64,
    pixel_from: f64,
    pixel_to: f64,
}

impl Axis {
    fn pixel(&self, v: f64) -> f64 {
        self.pixel_from + (v - self.min) / (self.max - self.min) * (self.pixel_to - self.pixel_from)
    }
}

/// The smallest and largest finite value, if any.
fn finite_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// A range that is non-empty and not a single value: a lone value `v` becomes `v ± max(|v|/10, 1)`.
fn widen((lo, hi): (f64, f64)) -> (f64, f64) {
    if hi > lo {
        (lo, hi)
    } else {
        let pad = (lo.abs() / 10.0).max(1.0);
        (lo - pad, hi + pad)
    }
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about [`TICKS`] ticks over `span`.
fn tick_step(span: f64) -> f64 {
    let raw = span / TICKS;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    if step.is_finite() && step > 0.0 {
        step
    } else {
        1.0
    }
}

/// Tick values within `[min, max]` at multiples of `step`, and the decimals they need.
fn ticks(min: f64, max: f64) -> (Vec<f64>, usize) {
    let step = tick_step(max - min);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (min / step).ceil() as i64;
    let last = (max / step).floor() as i64;
    let values = (first..=last)
        .take(100)
        .map(|k| k as f64 * step + 0.0)
        .collect();
    (values, decimals)
}

/// Text made safe for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

impl Chart {
    /// An empty chart of the default size with these labels.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Chart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            ..Chart::default()
        }
    }

    /// The ranges `(x, y)`: the fixed ones if set and finite, else those of every finite point,
    /// band and reference line; widened to be non-degenerate, `[0, 1]` where there is no data.
    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let bands = || self.series.iter().filter_map(|s| s.band.as_ref()).flatten();
        let points = || self.series.iter().flat_map(|s| &s.points);
        let xs = points().map(|p| p.0).chain(bands().map(|b| b.0));
        let ys = points()
            .map(|p| p.1)
            .chain(bands().flat_map(|b| [b.1, b.2]))
            .chain(self.hlines.iter().map(|h| h.0));
        let fixed = |r: Option<(f64, f64)>| {
            r.and_then(|(lo, hi)| finite_range([lo, hi].into_iter()))
                .map(widen)
        };
        let x = fixed(self.x_range).unwrap_or_else(|| finite_range(xs).map_or((0.0, 1.0), widen));
        let y = fixed(self.y_range).unwrap_or_else(|| {
            let y = finite_range(ys).map_or((0.0, 1.0), widen);
            let pad = (y.1 - y.0) * 0.05;
            (y.0 - pad, y.1 + pad)
        });
        (x, y)
    }

    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        self.render("plot-area", 0.0)
    }

    /// Width and height as drawn (at least 320 × 200).
    fn size(&self) -> (f64, f64) {
        (self.width.max(320.0), self.height.max(200.0))
    }

    /// The chart as an `<svg>` element placed `y_offset` down its parent, clipping its lines to
    /// the element with id `clip_id` (unique within the document).
    fn render(&self, clip_id: &str, y_offset: f64) -> String {
        let (w, h) = self.size();
        let ((x0, x1), (y0, y1)) = self.ranges();
        let (left, right) = (MARGIN_LEFT, w - MARGIN_RIGHT);
        let (top, bottom) = (MARGIN_TOP, h - MARGIN_BOTTOM);
        let xa = Axis {
            min: x0,
            max: x1,
            pixel_from: left,
            pixel_to: right,
        };
        let ya = Axis {
            min: y0,
            max: y1,
            pixel_from: bottom,
            pixel_to: top,
        };

        let mut svg = String::new();
        // Writing to a String cannot fail; the results are ignored on purpose.
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" x="0" y="{y_offset}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(
            svg,
            r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
        );
        let _ = writeln!(
            svg,
            r#"<defs><clipPath id="{clip_id}"><rect x="{left}" y="{top}" width="{}" height="{}"/></clipPath></defs>"#,
            right - left,
            bottom - top
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="26" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
            (left + right) / 2.0,
            escape(&self.title)
        );

        self.write_axes(&mut svg, &xa, &ya);

        let _ = writeln!(svg, r#"<g clip-path="url(#{clip_id})">"#);
        for (i, s) in self.series.iter().enumerate() {
            if let Some(band) = &s.band {
                write_band(&mut svg, band, &xa, &ya, PALETTE[i % PALETTE.len()]);
            }
        }
        for (value, label) in self.hlines.iter().filter(|h| h.0.is_finite()) {
            let y = ya.pixel(*value);
            let _ = writeln!(
                svg,
                r##"<line x1="{left}" y1="{y:.2}" x2="{right}" y2="{y:.2}" stroke="#555555" stroke-width="1" stroke-dasharray="6,4"/>"##
            );
            // The label sits above its line, or below it when that would leave the plot.
            let label_y = if y - 16.0 < top { y + 14.0 } else { y - 4.0 };
            let _ = writeln!(
                svg,
                r##"<text x="{:.2}" y="{label_y:.2}" text-anchor="end" fill="#555555">{}</text>"##,
                right - 4.0,
                escape(label)
            );
        }
        for (i, s) in self.series.iter().enumerate() {
            write_line(&mut svg, &s.points, &xa, &ya, PALETTE[i % PALETTE.len()]);
        }
        let _ = writeln!(svg, "</g>");

        self.write_legend(&mut svg, right + 16.0, top);
        svg.push_str("</svg>\n");
        svg
    }

    /// Writes [`Chart::to_svg`] to `path`.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_svg())
    }

    fn write_axes(&self, svg: &mut String, xa: &Axis, ya: &Axis) {
        let (left, right, top, bottom) = (xa.pixel_from, xa.pixel_to, ya.pixel_to, ya.pixel_from);
        let _ = writeln!(
            svg,
            r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#333333"/>"##,
            right - left,
            bottom - top
        );
        let (xt, xd) = ticks(xa.min, xa.max);
        for v in xt {
            let x = xa.pixel(v);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.2}" y1="{top}" x2="{x:.2}" y2="{bottom}" stroke="#e5e5e5"/><text x="{x:.2}" y="{:.2}" text-anchor="middle">{v:.xd$}</text>"##,
                bottom + 16.0
            );
        }
        let (yt, yd) = ticks(ya.min, ya.max);
        for v in yt {
            let y = ya.pixel(v);
            let _ = writeln!(
                svg,
                r##"<line x1="{left}" y1="{y:.2}" x2="{right}" y2="{y:.2}" stroke="#e5e5e5"/><text x="{:.2}" y="{:.2}" text-anchor="end">{v:.yd$}</text>"##,
                left - 6.0,
                y + 4.0
            );
        }
        let _ = writeln!(
            svg,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
            (left + right) / 2.0,
            bottom + 40.0,
            escape(&self.x_label)
        );
        let (cx, cy) = (18.0, (top + bottom) / 2.0);
        let _ = writeln!(
            svg,
            r#"<text x="{cx}" y="{cy:.2}" text-anchor="middle" transform="rotate(-90 {cx} {cy:.2})">{}</text>"#,
            escape(&self.y_label)
        );
    }

    fn write_legend(&self, svg: &mut String, x: f64, top: f64) {
        let _ = writeln!(svg, r#"<g class="legend">"#);
        for (i, s) in self.series.iter().enumerate() {
            let y = top + 10.0 + 20.0 * i as f64;
            let colour = PALETTE[i % PALETTE.len()];
            let _ = writeln!(
                svg,
                r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{}</text>"#,
                x + 22.0,
                x + 28.0,
                y + 4.0,
                escape(&s.name)
            );
        }
        let _ = writeln!(svg, "</g>");
    }
}

/// A series' line; a point standing alone (no finite neighbour) is drawn as a dot.
fn write_line(svg: &mut String, points: &[(f64, f64)], xa: &Axis, ya: &Axis, colour: &str) {
    let finite: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|&(x, y)| (xa.pixel(x), ya.pixel(y)))
        .collect();
    match finite.as_slice() {
        [] => {}
        [(x, y)] => {
            let _ = writeln!(
                svg,
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="3" fill="{colour}"/>"#
            );
        }
        pts => {
            let coords: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2" stroke-linejoin="round"/>"#,
                coords.join(" ")
            );
        }
    }
}

/// A shaded band: the polygon along the highs, then back along the lows.
fn write_band(svg: &mut String, band: &[(f64, f64, f64)], xa: &Axis, ya: &Axis, colour: &str) {
    let finite: Vec<&(f64, f64, f64)> = band
        .iter()
        .filter(|(x, lo, hi)| x.is_finite() && lo.is_finite() && hi.is_finite())
        .collect();
    if finite.is_empty() {
        return;
    }
    let upper = finite
        .iter()
        .map(|(x, _, hi)| format!("{:.2},{:.2}", xa.pixel(*x), ya.pixel(*hi)));
    let lower = finite
        .iter()
        .rev()
        .map(|(x, lo, _)| format!("{:.2},{:.2}", xa.pixel(*x), ya.pixel(*lo)));
    let coords: Vec<String> = upper.chain(lower).collect();
    let _ = writeln!(
        svg,
        r#"<polygon points="{}" fill="{colour}" fill-opacity="0.2" stroke="none"/>"#,
        coords.join(" ")
    );
}

/// Several charts stacked top to bottom in one SVG document.
pub fn stack(charts: &[Chart]) -> String {
    let width = charts.iter().map(|c| c.size().0).fold(320.0, f64::max);
    let height: f64 = charts.iter().map(|c| c.size().1).sum::<f64>().max(200.0);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    svg.push('\n');
    let mut y = 0.0;
    for (i, chart) in charts.iter().enumerate() {
        svg.push_str(&chart.render(&format!("plot-area-{i}"), y));
        y += chart.size().1;
    }
    svg.push_str("</svg>\n");
    svg
}

/// Games from 0 to the last point's, once there are any.
fn x_range(history: &[Point]) -> Option<(f64, f64)> {
    history.last().map(|p| (0.0, p.games as f64))
}

/// The y range of Elo ± error over the last 90 % of the games, with 0 and 5 % headroom, so
/// the wild estimates of the first few pairs do not flatten the rest; `None` (fit everything)
/// for a short history.
fn settled_elo_range(history: &[Point]) -> Option<(f64, f64)> {
    let last = history.last()?.games as f64;
    if history.len() < 20 {
        return None;
    }
    let values = history
        .iter()
        .filter(|p| p.games as f64 >= 0.1 * last)
        .flat_map(|p| match (p.elo, p.elo_error) {
            (Some(e), Some(err)) => [e - err, e + err],
            (Some(e), None) => [e, e],
            _ => [f64::NAN, f64::NAN],
        });
    let (lo, hi) = widen(finite_range(values.chain([0.0]))?);
    let pad = (hi - lo) * 0.05;
    Some((lo - pad, hi + pad))
}

/// The `--plot` chart of a run: LLR against games with the SPRT bounds (when there is an SPRT)
/// above Elo ± 95 % against games.
pub fn history_svg(history: &[Point], sprt: Option<&SprtConfig>) -> String {
    let mut charts = Vec::new();
    if let Some(cfg) = sprt {
        let (lower, upper) = cfg.bounds();
        let model = match cfg.model {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        };
        let llr = history.iter().map(|p| (p.games as f64, p.llr)).collect();
        charts.push(Chart {
            series: vec![Series::new("LLR", llr)],
            hlines: vec![
                (upper, format!("H1 at {upper:.2}")),
                (lower, format!("H0 at {lower:.2}")),
            ],
            height: 360.0,
            x_range: x_range(history),
            ..Chart::new(
                format!("SPRT [{:.2}, {:.2}] ({model})", cfg.elo0, cfg.elo1),
                "games",
                "LLR",
            )
        });
    }
    let elo = history
        .iter()
        .filter_map(|p| Some((p.games as f64, p.elo?)))
        .collect();
    let band = history
        .iter()
        .filter_map(|p| {
            let (elo, error) = (p.elo?, p.elo_error?);
            Some((p.games as f64, elo - error, elo + error))
        })
        .collect();
    charts.push(Chart {
        y_range: settled_elo_range(history),
        series: vec![Series::new("Elo", elo).with_band(band)],
        hlines: vec![(0.0, "0".to_owned())],
        height: 360.0,
        x_range: x_range(history),
        ..Chart::new("Elo ± 95 %", "games", "Elo")
    });
    stack(&charts)
}

#[cfg(test)]
mod tests;
