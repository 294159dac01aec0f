//! `arena serve` in a real browser: Debian's chromium, headless, loads the runs table while an
//! SPRT is playing into the database and the table's game count grows between two loads; the
//! run's page renders its figures and its SVG chart; the ablation page its Elo chart. Bad
//! requests get a 4xx answer and the server keeps serving.

mod runner_common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use runner_common::*;

/// Debian's chromium, or None (through [`skip`]) when it is not installed.
fn chromium() -> Option<String> {
    for c in ["chromium", "chromium-browser", "google-chrome"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {c}")])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        if let Some(path) = found.filter(|p| !p.is_empty()) {
            return Some(path);
        }
    }
    skip("chromium is not installed (bash ci/setup.sh installs it)");
    None
}

/// The DOM of `url` after its scripts ran for a few seconds of virtual time.
fn dom(browser: &str, url: &str, profile: &Path) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--dump-dom",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .stderr(Stdio::null())
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed on {url}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `arena serve --port 0` on `db`: the child and its address.
fn serve(db: &Path) -> (Child, String) {
    let mut child = arena()
        .args(["serve", "--port", "0"])
        .arg("--db")
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let start = line.find("http://").unwrap_or_else(|| panic!("{line}"));
    let addr = line[start + 7..].split('/').next().unwrap().to_string();
    (child, addr)
}

/// A raw HTTP/1.1 request; the status code of the answer.
fn status_of(addr: &str, request: &[u8]) -> u16 {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).unwrap();
    let mut head = [0u8; 12];
    s.read_exact(&mut head).unwrap();
    String::from_utf8_lossy(&head[9..12]).parse().unwrap()
}

fn get(addr: &str, path: &str) -> u16 {
    status_of(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// The `data-games` of the table row of run `id` in a dumped DOM.
fn row_games(dom: &str, id: u64) -> Option<u64> {
    let at = dom.find(&format!("data-id=\"{id}\" data-games=\""))?;
    let rest = &dom[at..];
    let q = rest.find("data-games=\"")? + 12;
    rest[q..].split('"').next()?.parse().ok()
}

#[test]
fn the_runs_page_shows_a_live_run_updating_and_its_charts() {
    let Some(browser) = chromium() else { return };
    let Some(clio) = clio_release() else { return };
    let dir = scratch("serve");
    let db = dir.join("r.sqlite");
    let profile = dir.join("profile");
    // A finished ablation beside the live run (the committed export's rows).
    let out = arena()
        .args(["results", "import"])
        .arg(root().join("results/runs.jsonl"))
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", texts(&out));
    let mut run = arena()
        .args(["sprt", "--dev-cmd", &clio, "--base-cmd", &clio])
        .args([
            "--base-option",
            "UseHistory=false",
            "--run-name",
            "live one",
        ])
        .args([
            "--nodes",
            "4000",
            "--concurrency",
            "1",
            "--max-games",
            "400",
        ])
        .args(["--elo0", "0", "--elo1", "10", "--rating-interval", "0"])
        .arg("--openings")
        .arg(root().join("openings/clio-balanced.epd"))
        .arg("--db")
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (mut server, addr) = serve(&db);
    let index = format!("http://{addr}/");

    // The live run's id: the newest, listed first by the API.
    let t0 = Instant::now();
    let (id, first) = loop {
        let page = dom(&browser, &index, &profile);
        assert!(page.contains("<table"), "{page}");
        if let Some(at) = page.find("<tr class=\"running\" data-id=\"") {
            let id: u64 = page[at + 29..].split('"').next().unwrap().parse().unwrap();
            if let Some(g) = row_games(&page, id).filter(|g| *g > 0) {
                assert!(page.contains("live one"), "the run's name is shown");
                break (id, g);
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(90),
            "no live run: {page}"
        );
        std::thread::sleep(Duration::from_millis(300));
    };
    let t1 = Instant::now();
    let later = loop {
        std::thread::sleep(Duration::from_millis(500));
        let page = dom(&browser, &index, &profile);
        let g = row_games(&page, id).unwrap_or(0);
        if g > first {
            assert!(page.contains(&format!("data-id=\"{id}\"")), "{page}");
            break g;
        }
        assert!(t1.elapsed() < Duration::from_secs(90), "no update: {page}");
    };
    assert!(later > first);

    // The run's page: status, figures, pentanomial, engines, the command, the chart.
    let page = dom(&browser, &format!("http://{addr}/run/{id}"), &profile);
    assert!(page.contains("live one"), "{page}");
    assert!(page.contains("running"), "{page}");
    assert!(page.contains("id=\"penta\""), "{page}");
    assert!(page.contains("UseHistory=false"), "{page}");
    assert!(page.contains("--nodes 4000"), "{page}");
    let chart = page.find("id=\"chart\"").expect("a chart block");
    assert!(page[chart..].contains("<svg"), "{page}");
    assert!(page[chart..].contains("<polyline"), "an LLR line is drawn");

    // An ablation's page draws the Elo table as a chart.
    let list = arena()
        .args([
            "results", "--kind", "ablate", "--format", "json", "--limit", "1",
        ])
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let ablate = v[0]["id"].as_u64().expect("an imported ablation");
    let page = dom(&browser, &format!("http://{addr}/run/{ablate}"), &profile);
    let at = page.find("id=\"ablate\"").expect("an ablation block");
    assert!(page[at..].contains("<svg"), "{page}");

    // Bad requests: 4xx, and the server still answers.
    assert_eq!(get(&addr, "/run/999999"), 404);
    assert_eq!(get(&addr, "/api/run/notanumber"), 404);
    assert_eq!(get(&addr, "/api/runs?limit=lots"), 400);
    assert_eq!(get(&addr, "/api/runs?nosuchkey=1"), 400);
    assert_eq!(get(&addr, "/nowhere"), 404);
    assert_eq!(
        get(&addr, &format!("/api/runs?name={}", "x".repeat(5000))),
        414
    );
    assert_eq!(
        status_of(
            &addr,
            b"POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
        ),
        405
    );
    assert!(
        status_of(&addr, b"GARBAGE\r\n\r\n") >= 400,
        "a malformed request line"
    );
    assert_eq!(get(&addr, "/api/runs"), 200, "still serving");
    assert!(server.try_wait().unwrap().is_none(), "the server is alive");

    let _ = run.kill();
    let _ = run.wait();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
