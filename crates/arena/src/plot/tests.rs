//! Tests of the SVG charts: parsed back with an XML reader.

use super::*;
use quick_xml::events::Event;
use quick_xml::Reader;

/// Parses `svg` with a real XML reader, checking every tag is closed in order, and returns
/// the names of the elements and the text content.
fn parse(svg: &str) -> (Vec<String>, Vec<String>) {
    let mut reader = Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let (mut open, mut names, mut texts) = (Vec::new(), Vec::new(), Vec::new());
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                for attr in e.attributes() {
                    attr.expect("well-formed attribute");
                }
                open.push(name.clone());
                names.push(name);
            }
            Ok(Event::Empty(e)) => {
                for attr in e.attributes() {
                    attr.expect("well-formed attribute");
                }
                names.push(String::from_utf8(e.name().as_ref().to_vec()).unwrap());
            }
            Ok(Event::End(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                assert_eq!(open.pop().as_deref(), Some(name.as_str()));
            }
            Ok(Event::Text(t)) => {
                let text = t.unescape().expect("valid escapes").trim().to_owned();
                if !text.is_empty() {
                    texts.push(text);
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("malformed SVG at {}: {e}\n{svg}", reader.buffer_position()),
        }
    }
    assert!(open.is_empty(), "unclosed {open:?}");
    assert_eq!(names.first().map(String::as_str), Some("svg"));
    (names, texts)
}

fn sprt_chart() -> Chart {
    let llr: Vec<(f64, f64)> = (0..50)
        .map(|i| (2.0 * i as f64, (i as f64 * 0.3).sin() * 2.0))
        .collect();
    let elo = Series::new("Elo", llr.iter().map(|&(x, y)| (x, 10.0 * y)).collect()).with_band(
        llr.iter()
            .map(|&(x, y)| (x, 10.0 * y - 5.0, 10.0 * y + 5.0))
            .collect(),
    );
    Chart {
        series: vec![Series::new("LLR", llr), elo],
        hlines: vec![(-2.94, "H0 <bound>".into()), (2.94, "H1 & \"up\"".into())],
        ..Chart::new("dev vs base", "games", "LLR / Elo")
    }
}

#[test]
fn chart_is_well_formed_with_every_name() {
    let svg = sprt_chart().to_svg();
    let (names, texts) = parse(&svg);
    for text in [
        "LLR",
        "Elo",
        "H0 <bound>",
        "H1 & \"up\"",
        "dev vs base",
        "games",
    ] {
        assert!(
            texts.iter().any(|t| t == text),
            "{text} missing from {texts:?}"
        );
    }
    assert_eq!(names.iter().filter(|n| *n == "polyline").count(), 2);
    assert_eq!(names.iter().filter(|n| *n == "polygon").count(), 1);
    assert!(
        names.iter().filter(|n| *n == "text").count() > 10,
        "ticks are labelled"
    );
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn points_stay_inside_the_plot_area() {
    let chart = sprt_chart();
    let svg = chart.to_svg();
    let polyline = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
    let coords = polyline.split('"').nth(1).unwrap();
    for pair in coords.split(' ') {
        let (x, y) = pair.split_once(',').unwrap();
        let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
        assert!(
            (MARGIN_LEFT..=chart.width - MARGIN_RIGHT).contains(&x),
            "{x}"
        );
        assert!(
            (MARGIN_TOP..=chart.height - MARGIN_BOTTOM).contains(&y),
            "{y}"
        );
    }
}

#[test]
fn degenerate_charts_render() {
    let single = Chart {
        series: vec![Series::new("one", vec![(5.0, 5.0)])],
        ..Chart::new("single", "x", "y")
    };
    let flat = Chart {
        series: vec![Series::new(
            "flat",
            vec![(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)],
        )],
        ..Chart::new("flat", "x", "y")
    };
    let empty = Chart {
        series: vec![Series::new("nothing", vec![])],
        ..Chart::new("empty & void", "x", "y")
    };
    let nan = Chart {
        series: vec![
            Series::new("nan", vec![(f64::NAN, 1.0), (1.0, f64::INFINITY)]).with_band(vec![(
                0.0,
                f64::NAN,
                1.0,
            )]),
        ],
        hlines: vec![(f64::NAN, "nowhere".into())],
        ..Chart::new("nan", "x", "y")
    };
    for chart in [single, flat, empty, nan, Chart::default()] {
        let svg = chart.to_svg();
        let (names, texts) = parse(&svg);
        for s in &chart.series {
            assert!(texts.contains(&s.name), "{} missing", s.name);
        }
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        assert!(names.iter().filter(|n| *n == "text").count() >= 4, "{svg}");
    }
    let svg = Chart {
        series: vec![Series::new("one", vec![(5.0, 5.0)])],
        ..Chart::default()
    }
    .to_svg();
    assert!(svg.contains("<circle"));
}

#[test]
fn ticks_are_round_and_cover_the_range() {
    let (values, decimals) = ticks(0.0, 1000.0);
    assert_eq!(values, vec![0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]);
    assert_eq!(decimals, 0);
    let (values, decimals) = ticks(-3.1, 3.1);
    assert_eq!(values, vec![-2.0, 0.0, 2.0]);
    assert_eq!(decimals, 0);
    let (values, decimals) = ticks(-2.94, 2.94);
    assert_eq!(values, vec![-2.0, -1.0, 0.0, 1.0, 2.0]);
    assert_eq!(decimals, 0);
    let (values, decimals) = ticks(0.001, 0.0042);
    assert!(values.len() >= 3 && decimals >= 3, "{values:?} {decimals}");
    assert_eq!(widen((2.0, 2.0)), (1.0, 3.0));
    assert_eq!(widen((50.0, 50.0)), (45.0, 55.0));
}

#[test]
fn history_chart_has_both_panels() {
    let history: Vec<Point> = (1..=30)
        .map(|i| Point {
            games: 2 * i,
            llr: 0.1 * i as f64,
            elo: (i > 1).then_some(40.0 / i as f64),
            elo_error: (i > 2).then_some(200.0 / i as f64),
        })
        .collect();
    let cfg = SprtConfig::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
    let svg = history_svg(&history, Some(&cfg));
    let (names, texts) = parse(&svg);
    assert_eq!(names.iter().filter(|n| *n == "svg").count(), 3);
    assert_eq!(names.iter().filter(|n| *n == "clipPath").count(), 2);
    for text in [
        "LLR",
        "Elo",
        "H1 at 2.94",
        "H0 at -2.94",
        "SPRT [0.00, 2.00] (normalized)",
    ] {
        assert!(
            texts.iter().any(|t| t == text),
            "{text} missing from {texts:?}"
        );
    }
    let without = history_svg(&history, None);
    let (names, texts) = parse(&without);
    assert_eq!(names.iter().filter(|n| *n == "svg").count(), 2);
    assert!(!texts.iter().any(|t| t == "LLR"));
    let (_, texts) = parse(&history_svg(&[], Some(&cfg)));
    assert!(texts.iter().any(|t| t == "Elo"));
}

#[test]
fn fixed_ranges_set_the_axes() {
    let chart = Chart {
        series: vec![Series::new("wide", vec![(0.0, -50.0), (10.0, 50.0)])],
        y_range: Some((0.0, 1.0)),
        x_range: Some((0.0, 20.0)),
        ..Chart::new("fixed", "x", "y")
    };
    let (_, texts) = parse(&chart.to_svg());
    for tick in ["0.0", "0.2", "1.0", "20"] {
        assert!(
            texts.iter().any(|t| t == tick),
            "{tick} missing from {texts:?}"
        );
    }
    assert!(!texts.iter().any(|t| t == "50" || t == "-50"));
}

#[test]
fn elo_panel_ignores_the_first_games() {
    let mut history: Vec<Point> = (1..=100)
        .map(|i| Point {
            games: 2 * i,
            llr: 0.0,
            elo: Some(5.0),
            elo_error: Some(3.0),
        })
        .collect();
    history[0].elo = Some(-400.0);
    let (lo, hi) = settled_elo_range(&history).unwrap();
    assert!(
        (lo + 0.4).abs() < 1e-9 && (hi - 8.4).abs() < 1e-9,
        "{lo} {hi}"
    );
    assert_eq!(settled_elo_range(&history[..5]), None);
}
