//! What the arena sends an engine: `position`, `go` and `setoption` lines.

/// A clock for `go`: both sides' remaining time and increment in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoClock {
    /// White's remaining time.
    pub wtime: u64,
    /// Black's remaining time.
    pub btime: u64,
    /// White's increment.
    pub winc: u64,
    /// Black's increment.
    pub binc: u64,
    /// Moves to the next time control, if the control has a move count.
    pub movestogo: Option<u32>,
}

/// What to put on a `go` line; every present part is sent (e.g. a clock and a node limit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `wtime … btime … winc … binc … [movestogo …]`.
    pub clock: Option<GoClock>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `movetime N`.
    pub movetime_ms: Option<u64>,
}

/// `go …` for the given limits (a bare `go` would search until `stop`: give at least one).
pub fn go_command(p: &GoParams) -> String {
    let mut s = String::from("go");
    if let Some(c) = p.clock {
        s += &format!(
            " wtime {} btime {} winc {} binc {}",
            c.wtime, c.btime, c.winc, c.binc
        );
        if let Some(m) = c.movestogo {
            s += &format!(" movestogo {m}");
        }
    }
    if let Some(n) = p.nodes {
        s += &format!(" nodes {n}");
    }
    if let Some(d) = p.depth {
        s += &format!(" depth {d}");
    }
    if let Some(t) = p.movetime_ms {
        s += &format!(" movetime {t}");
    }
    s
}

/// `position startpos|fen … [moves …]`; `fen: None` is the standard start position.
pub fn position_command(fen: Option<&str>, moves: &[String]) -> String {
    let mut s = match fen {
        None => String::from("position startpos"),
        Some(f) => format!("position fen {f}"),
    };
    if !moves.is_empty() {
        s += " moves";
        for m in moves {
            s.push(' ');
            s += m;
        }
    }
    s
}

/// `setoption name X value Y` (a button has no value: pass an empty `value`).
pub fn setoption_command(name: &str, value: &str) -> String {
    if value.is_empty() {
        format!("setoption name {name}")
    } else {
        format!("setoption name {name} value {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(position_command(None, &[]), "position startpos");
        assert_eq!(
            position_command(Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"), &["a1a2".into()]),
            "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2"
        );
        let clock = GoClock {
            wtime: 1000,
            btime: 900,
            winc: 10,
            binc: 10,
            movestogo: Some(7),
        };
        assert_eq!(
            go_command(&GoParams {
                clock: Some(clock),
                ..GoParams::default()
            }),
            "go wtime 1000 btime 900 winc 10 binc 10 movestogo 7"
        );
        assert_eq!(
            go_command(&GoParams {
                nodes: Some(1000),
                ..GoParams::default()
            }),
            "go nodes 1000"
        );
        assert_eq!(
            go_command(&GoParams {
                depth: Some(5),
                movetime_ms: Some(100),
                ..GoParams::default()
            }),
            "go depth 5 movetime 100"
        );
        assert_eq!(
            setoption_command("Hash", "16"),
            "setoption name Hash value 16"
        );
        assert_eq!(
            setoption_command("Clear Hash", ""),
            "setoption name Clear Hash"
        );
    }
}
