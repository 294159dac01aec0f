//! Games against misbehaving engines (tests/fixtures/fake_engine.py, which relays to Stockfish
//! and misbehaves on cue): each fault costs the faulty side its game with fastchess's reason,
//! and the engine works again after a restart. Skipped with a note (a failure under CI) when
//! Stockfish or python3 is missing.

mod runner_common;
use runner_common::*;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use clio_arena::engine::{Engine, EngineConfig, EngineError, Timeouts};
use clio_arena::game::{
    play_game, Adjudication, GameError, GameOutcome, GameRecord, GameResult, GameSettings, Limits,
    Opening, Score, Termination,
};

fn timeouts() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(20),
        ready: Duration::from_secs(20),
        quit_grace: Duration::from_millis(500),
    }
}

fn sf_config(sf: &str) -> EngineConfig {
    EngineConfig {
        name: "stockfish".into(),
        cmd: sf.into(),
        args: vec![],
        dir: None,
        options: vec![("Threads".into(), "1".into()), ("Hash".into(), "8".into())],
        shared_options: Vec::new(),
        cpus: None,
    }
}

fn fake_config(sf: &str, mode: &str, at: u32) -> EngineConfig {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    EngineConfig {
        name: format!("fake-{mode}"),
        cmd: script.to_string_lossy().into_owned(),
        args: vec![mode.into(), at.to_string(), sf.into()],
        dir: None,
        options: vec![("Hash".into(), "8".into())],
        shared_options: Vec::new(),
        cpus: None,
    }
}

fn start(config: EngineConfig) -> Engine {
    let name = config.name.clone();
    Engine::start_with(config, timeouts()).unwrap_or_else(|e| panic!("starting {name}: {e}"))
}

fn nodes(n: u64) -> GameSettings {
    GameSettings {
        variant: Default::default(),
        limits: Limits {
            nodes: Some(n),
            stall_ms: 3_000,
            ..Limits::default()
        },
        adjudication: Adjudication::default(),
    }
}

fn finished(outcome: Result<GameOutcome, GameError>) -> GameRecord {
    match outcome {
        Ok(GameOutcome::Finished(r)) => *r,
        other => panic!("expected a finished game, got {other:?}"),
    }
}

fn play(white: &mut Engine, black: &mut Engine, settings: &GameSettings) -> GameRecord {
    let stop = AtomicBool::new(false);
    finished(play_game(
        white,
        black,
        &Opening::startpos(),
        settings,
        &stop,
    ))
}

#[test]
fn crash_loses_by_disconnect_and_the_engine_restarts() {
    let Some(sf) = sf_and_python() else { return };
    let mut fake = start(fake_config(&sf, "crash", 2));
    let mut sf = start(sf_config(&sf));
    let g = play(&mut fake, &mut sf, &nodes(2000));
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.termination, Termination::Disconnect);
    assert_eq!(g.reason, "White disconnects");
    assert_eq!(g.moves.len(), 2);
    assert!(!fake.is_alive());
    fake.ensure_alive().expect("restart after a crash");
    assert!(fake.is_alive());
    // The restarted process plays again (and crashes again at its second search, as Black).
    let g = play(&mut sf, &mut fake, &nodes(2000));
    assert_eq!(g.reason, "Black disconnects");
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.moves.len(), 3);
}

#[test]
fn hang_without_clock_stalls_and_the_engine_restarts() {
    let Some(sf) = sf_and_python() else { return };
    let mut fake = start(fake_config(&sf, "hang", 2));
    let mut sf = start(sf_config(&sf));
    let g = play(&mut sf, &mut fake, &nodes(2000));
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.termination, Termination::Stall);
    assert_eq!(g.reason, "Black's connection stalls");
    assert!(!fake.is_alive(), "a hung engine is killed");
    fake.restart().expect("restart after a hang");
    fake.wait_ready(Duration::from_secs(10))
        .expect("answers after restart");
}

#[test]
fn hang_under_a_clock_stalls() {
    let Some(sf) = sf_and_python() else { return };
    let mut fake = start(fake_config(&sf, "hang", 1));
    let mut sf = start(sf_config(&sf));
    let settings = GameSettings {
        variant: Default::default(),
        limits: Limits {
            tc: Some("1+0.05".parse().unwrap()),
            nodes: Some(2000),
            stall_ms: 1000,
            ..Limits::default()
        },
        adjudication: Adjudication::default(),
    };
    let g = play(&mut fake, &mut sf, &settings);
    assert_eq!(g.reason, "White's connection stalls");
    assert!(g.moves.is_empty());
    assert!(!fake.is_alive());
}

/// Hung but responsive (answers `isready`, never sends `bestmove`): under a clock that is a
/// loss on time, as fastchess scores it, not a stalled connection (which OpenBench counts as a
/// crash).
#[test]
fn thinking_forever_under_a_clock_loses_on_time() {
    let Some(sf) = sf_and_python() else { return };
    let mut fake = start(fake_config(&sf, "thinker", 1));
    let mut sf = start(sf_config(&sf));
    let settings = GameSettings {
        variant: Default::default(),
        limits: Limits {
            tc: Some("1+0.05".parse().unwrap()),
            nodes: Some(2000),
            stall_ms: 1000,
            ..Limits::default()
        },
        adjudication: Adjudication::default(),
    };
    let g = play(&mut fake, &mut sf, &settings);
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.termination, Termination::TimeForfeit, "{}", g.reason);
    assert!(g.reason.starts_with("White loses on time"), "{}", g.reason);
    assert!(g.moves.is_empty());
    assert!(!fake.is_alive(), "a late engine is killed and restarted");
}

#[test]
fn late_move_loses_on_time_with_the_overrun() {
    let Some(sf) = sf_and_python() else { return };
    let mut fake = start(fake_config(&sf, "slow", 2));
    let mut sf = start(sf_config(&sf));
    let settings = GameSettings {
        variant: Default::default(),
        limits: Limits {
            tc: Some("2+0".parse().unwrap()),
            nodes: Some(2000),
            ..Limits::default()
        },
        adjudication: Adjudication::default(),
    };
    let g = play(&mut fake, &mut sf, &settings);
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.termination, Termination::TimeForfeit);
    let overrun = g
        .reason
        .strip_prefix("White loses on time (")
        .and_then(|r| r.strip_suffix("ms overrun)"))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(overrun.is_some_and(|n| n > 0), "reason: {}", g.reason);
    assert_eq!(g.moves.len(), 2);
    // The engine answered `stop`, so it stays up.
    assert!(fake.is_alive());
    fake.wait_ready(Duration::from_secs(10))
        .expect("still answers");
}

#[test]
fn illegal_and_missing_moves_lose() {
    let Some(path) = sf_and_python() else { return };
    let mut sf = start(sf_config(&path));
    for (mode, shown) in [("illegal", "a1a1"), ("none", "(none)")] {
        let mut fake = start(fake_config(&path, mode, 2));
        let g = play(&mut fake, &mut sf, &nodes(2000));
        assert_eq!(g.result, GameResult::BlackWins, "{mode}");
        assert_eq!(g.termination, Termination::IllegalMove, "{mode}");
        assert_eq!(g.reason, "White makes an illegal move");
        assert!(
            g.detail.as_deref().is_some_and(|d| d.contains(shown)),
            "{:?}",
            g.detail
        );
        assert_eq!(g.moves.len(), 2);
        fake.ensure_alive().unwrap();
        fake.wait_ready(Duration::from_secs(10))
            .expect("usable after an illegal move");
    }
}

#[test]
fn garbage_and_odd_info_lines_do_not_cost_the_game() {
    let Some(sf) = sf_and_python() else { return };
    let mut garbage = start(fake_config(&sf, "garbage", 0));
    let mut wdl = start(fake_config(&sf, "wdl", 0));
    let settings = GameSettings {
        variant: Default::default(),
        adjudication: Adjudication {
            maxmoves: Some(4),
            ..Adjudication::default()
        },
        ..nodes(2000)
    };
    let g = play(&mut garbage, &mut wdl, &settings);
    assert_eq!(g.termination, Termination::MaxMoves, "{}", g.reason);
    assert_eq!(g.reason, "Draw by adjudication");
    assert_eq!(g.result, GameResult::Draw);
    assert_eq!(g.moves.len(), 8);
    for black in g.moves.iter().skip(1).step_by(2) {
        assert_eq!(black.depth, Some(300));
        assert_eq!(black.nodes, Some(1_234_567_890_123));
        assert_eq!(black.score, Some(Score::Cp(12)));
    }
}

#[test]
fn never_sending_uciok_is_an_error_naming_the_engine() {
    let Some(sf) = sf_and_python() else { return };
    let t = Timeouts {
        handshake: Duration::from_millis(700),
        ..timeouts()
    };
    let err = Engine::start_with(fake_config(&sf, "nouciok", 0), t).unwrap_err();
    assert!(
        matches!(
            &err,
            EngineError::Timeout {
                expected: "uciok",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("fake-nouciok"), "{err}");
}

#[test]
fn resign_adjudication_against_a_losing_engine() {
    let Some(sf) = sf_and_python() else { return };
    let mut losing = start(fake_config(&sf, "losing", 0));
    let mut sf = start(sf_config(&sf));
    let settings = GameSettings {
        variant: Default::default(),
        adjudication: Adjudication {
            resign: Some("movecount=3,score=400".parse().unwrap()),
            ..Adjudication::default()
        },
        ..nodes(2000)
    };
    let g = play(&mut losing, &mut sf, &settings);
    assert_eq!(
        g.termination,
        Termination::AdjudicatedResign,
        "{}",
        g.reason
    );
    assert_eq!(g.reason, "Black wins by adjudication");
    assert_eq!(g.moves.len(), 5);
}

#[test]
fn draw_adjudication_between_drawish_engines() {
    let Some(sf) = sf_and_python() else { return };
    let mut a = start(fake_config(&sf, "drawish", 0));
    let mut b = start(fake_config(&sf, "drawish", 0));
    let settings = GameSettings {
        variant: Default::default(),
        adjudication: Adjudication {
            draw: Some("movenumber=1,movecount=1,score=10".parse().unwrap()),
            maxmoves: Some(40),
            ..Adjudication::default()
        },
        ..nodes(2000)
    };
    let g = play(&mut a, &mut b, &settings);
    assert_eq!(g.termination, Termination::AdjudicatedDraw, "{}", g.reason);
    assert_eq!(g.reason, "Draw by adjudication");
    assert_eq!(g.result, GameResult::Draw);
}

#[test]
fn bad_opening_is_an_error_before_any_move() {
    let Some(sf) = sf_and_python() else { return };
    let mut w = start(sf_config(&sf));
    let mut b = start(sf_config(&sf));
    let stop = AtomicBool::new(false);
    let bad = Opening {
        fen: None,
        moves: vec!["e2e4".into(), "e7e5".into(), "e4e5".into()],
    };
    let err = play_game(&mut w, &mut b, &bad, &nodes(1000), &stop).unwrap_err();
    assert!(err.to_string().contains("e4e5"), "{err}");
    let bad = Opening {
        fen: Some("8/8/8/8 w - - 0 1".into()),
        moves: vec![],
    };
    let err = play_game(&mut w, &mut b, &bad, &nodes(1000), &stop).unwrap_err();
    assert!(err.to_string().contains("8/8/8/8 w - - 0 1"), "{err}");
}

#[test]
fn stop_flag_interrupts_a_game() {
    let Some(sf) = sf_and_python() else { return };
    let mut w = start(sf_config(&sf));
    let mut b = start(sf_config(&sf));
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let settings = GameSettings {
        variant: Default::default(),
        limits: Limits {
            movetime_ms: Some(10_000),
            margin_ms: 1000,
            ..Limits::default()
        },
        adjudication: Adjudication::default(),
    };
    let outcome = play_game(&mut w, &mut b, &Opening::startpos(), &settings, &stop);
    assert!(
        matches!(outcome, Ok(GameOutcome::Interrupted)),
        "{outcome:?}"
    );
    raiser.join().unwrap();
    w.wait_ready(Duration::from_secs(10))
        .expect("usable after an interrupted search");
}

#[test]
fn each_side_is_sent_its_own_clock_and_charged_its_own_time() {
    let Some(sf) = sf_and_python() else { return };
    let mut slow = start(fake_config(&sf, "ownclock", 0));
    let mut sf = start(sf_config(&sf));
    let settings = GameSettings {
        variant: Default::default(),
        limits: Limits {
            tc: Some("10+0".parse().unwrap()),
            nodes: Some(2000),
            ..Limits::default()
        },
        adjudication: Adjudication {
            maxmoves: Some(3),
            ..Adjudication::default()
        },
    };
    for fake_is_white in [true, false] {
        let g = if fake_is_white {
            play(&mut slow, &mut sf, &settings)
        } else {
            play(&mut sf, &mut slow, &settings)
        };
        assert_eq!(
            g.termination,
            Termination::MaxMoves,
            "{}: {:?}",
            g.reason,
            g.detail
        );
        let (fake, other) = if fake_is_white { (0, 1) } else { (1, 0) };
        assert!(g.engine_time_us[fake] >= 900_000, "{:?}", g.engine_time_us);
        assert!(
            g.engine_time_us[fake] > g.engine_time_us[other],
            "{:?}",
            g.engine_time_us
        );
    }
}
