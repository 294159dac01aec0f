//! The trajectory chart: every parameter's θ after each iteration, normalized as
//! `(θ − start)/c_end` so parameters of any scale share one axis (a move of 1 is one final
//! perturbation), drawn with the arena's chart module.

use super::config::Param;
use crate::plot::{Chart, Series};

/// SVG of the trajectories; `trajectory[k]` is θ after iteration k (0-based), plotted at k+1
/// after a first point at 0 (the start).
pub fn trajectories(params: &[Param], trajectory: &[Vec<f64>]) -> String {
    let mut chart = Chart::new("SPSA trajectories", "iteration", "(θ − start) / c_end");
    for (i, p) in params.iter().enumerate() {
        let points = std::iter::once((0.0, 0.0))
            .chain(trajectory.iter().enumerate().filter_map(|(k, theta)| {
                theta
                    .get(i)
                    .map(|v| ((k + 1) as f64, (v - p.value) / p.step))
            }))
            .collect();
        chart.series.push(Series::new(p.name.clone(), points));
    }
    chart.hlines.push((0.0, "start".to_string()));
    chart.to_svg()
}
