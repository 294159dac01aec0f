//! The trajectory chart: every parameter's θ after each iteration, normalized as
//! `(θ − start)/c_end` so parameters of any scale share one axis (a move of 1 is one final
//! perturbation), drawn with the arena's chart module.

use super::config::Param;
use crate::plot::{Chart, Series};

/// SVG of the trajectories; `trajectory[j]` is θ after iteration `first + j` (0-based), plotted
/// at `first + j + 1`, after a first point at 0 (the start) for a run begun here.
pub fn trajectories(params: &[Param], trajectory: &[Vec<f64>], first: u64) -> String {
    let mut chart = Chart::new("SPSA trajectories", "iteration", "(θ − start) / c_end");
    for (i, p) in params.iter().enumerate() {
        let start = (first == 0).then_some((0.0, 0.0));
        let points = start
            .into_iter()
            .chain(trajectory.iter().enumerate().filter_map(|(j, theta)| {
                theta
                    .get(i)
                    .map(|v| ((first + j as u64 + 1) as f64, (v - p.value) / p.step))
            }))
            .collect();
        chart.series.push(Series::new(p.name.clone(), points));
    }
    chart.hlines.push((0.0, "start".to_string()));
    chart.to_svg()
}
