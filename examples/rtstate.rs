//! The state of a realtime game from an arena report (`roger arena --json`) at given ms, rebuilt
//! from its orders: to replay a game from any moment (`rtplay`) or judge it (`rtjudge`).
//!
//! `cargo run --release --example rtstate -- REPORT.json INDEX MS...` prints the players, then
//! each state's text and board.
use roger::rules::realtime::{Color, Order, RealtimeParams, RealtimeState};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let index: u64 = args[2].parse().unwrap();
    let game = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["index"].as_u64() == Some(index))
        .expect("no such game");
    let record = &game["record"];
    let params = RealtimeParams {
        tick_ms: record["params"]["tick_ms"].as_u64().unwrap() as u32,
        delay_ticks: record["params"]["delay_ticks"].as_u64().unwrap() as u32,
        no_capture_draw_ticks: record["params"]["no_capture_draw_ticks"].as_u64().unwrap() as u32,
    };
    println!("names {:?} points {:?}", game["names"], game["points"]);
    let orders = record["orders"].as_array().unwrap();
    for ms in &args[3..] {
        let ms: u64 = ms.parse().unwrap();
        let mut state = RealtimeState::start(params);
        let mut events = Vec::new();
        for o in orders {
            if o.get("refused").is_some() {
                continue;
            }
            let at = o["ms"].as_u64().unwrap();
            if at > ms {
                break;
            }
            state.advance_to(at, &mut events);
            let side = if o["side"] == "white" {
                Color::White
            } else {
                Color::Black
            };
            let order = Order::parse(o["order"].as_str().unwrap()).unwrap();
            state.apply(side, order, &mut events).unwrap();
        }
        state.advance_to(ms, &mut events);
        println!("{}", state.text());
        let text = state.text();
        for row in text.split_whitespace().next().unwrap().split('/') {
            let mut line = String::new();
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(n) => line.push_str(&". ".repeat(n as usize)),
                    None => {
                        line.push(c);
                        line.push(' ');
                    }
                }
            }
            println!("  {line}");
        }
    }
}
