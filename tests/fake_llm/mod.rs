//! The LLM test server: a real HTTP server on 127.0.0.1 that answers like an
//! OpenAI-compatible model from a small knowledge table, or as a script says (errors,
//! stalls, truncated or oversized bodies), and records every request it saw.

// The test crate uses most of it, not every item.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

// ---------------------------------------------------------------------------
// The test server
// ---------------------------------------------------------------------------

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Req {
    pub auth: Option<String>,
    pub body: Value,
    /// "local" or "context".
    pub pass: &'static str,
    /// The document text between the triple quotes of the last user message.
    pub doc: String,
    /// `existing_entities` of a context request.
    pub existing: Vec<[String; 2]>,
}

#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with this message content.
    Content(String),
    /// Any status with extra headers and a raw body.
    Raw(u16, Vec<(&'static str, String)>, String),
    /// Announces 2000 bytes, sends a few, closes.
    Truncated,
    /// Sends the headers and half a body, then waits a minute.
    Stall,
    /// Waits, then answers like the fake model.
    Slow(Duration),
    /// The fake model's answer.
    Model,
}

pub type Script = Arc<dyn Fn(&Req, usize) -> Reply + Send + Sync>;

pub struct Server {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Req>>>,
    pub peak: Arc<AtomicUsize>,
    pub _rt: tokio::runtime::Runtime,
}

/// The fake model: (value, normalized, type, relevance, context pass only).
pub const KNOWLEDGE: &[(&str, &str, &str, f64, bool)] = &[
    ("Dana Whitfield", "dana whitfield", "NAME", 1.0, false),
    (
        "lupus nephritis",
        "lupus nephritis",
        "MEDICAL_CONDITION",
        0.9,
        false,
    ),
    (
        "Harbor View Clinic",
        "harbor view clinic",
        "PROVIDER",
        0.8,
        false,
    ),
    ("Massachusetts", "massachusetts", "LOCATION", 0.3, false),
    ("Port Calder", "port calder", "LOCATION", 0.9, false),
    (
        "night-shift baker",
        "night-shift baker",
        "INDIRECT_IDENTIFIER",
        0.7,
        true,
    ),
    (
        "Lakeshore Triathlon",
        "lakeshore triathlon",
        "EVENT",
        0.8,
        false,
    ),
];

pub fn model_answer(req: &Req) -> String {
    let entities: Vec<Value> = KNOWLEDGE
        .iter()
        .filter(|(v, _, _, _, ctx_only)| {
            req.doc.contains(v) && (!ctx_only || req.pass == "context")
        })
        .map(|(v, n, t, r, _)| json!([v, n, t, r]))
        .collect();
    json!({ "entities": entities }).to_string()
}

pub fn completion(content: &str) -> String {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    })
    .to_string()
}

pub fn parse_request(head: &str, body: &[u8]) -> Req {
    let auth = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("authorization: ")
                .or_else(|| l.strip_prefix("Authorization: "))
        })
        .map(str::to_string);
    let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let last = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_string();
    let doc = last
        .split_once("\"\"\"\n")
        .and_then(|(_, rest)| rest.rsplit_once("\n\"\"\""))
        .map(|(d, _)| d.to_string())
        .unwrap_or_default();
    let existing = last
        .split_once("existing_entities:\n")
        .and_then(|(_, rest)| rest.lines().next())
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_default();
    Req {
        auth,
        pass: if last.contains("existing_entities:") {
            "context"
        } else {
            "local"
        },
        body,
        doc,
        existing,
    }
}

pub async fn serve(
    mut sock: tokio::net::TcpStream,
    script: Script,
    requests: Arc<Mutex<Vec<Req>>>,
    in_flight: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        let Ok(n) = sock.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let len: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .unwrap_or(0);
    while buf.len() < head_end + len {
        let Ok(n) = sock.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let req = parse_request(&head, &buf[head_end..head_end + len]);
    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    peak.fetch_max(now, Ordering::SeqCst);
    let n = {
        let mut r = requests.lock().unwrap();
        r.push(req.clone());
        r.len() - 1
    };
    let reply = script(&req, n);
    let respond = |status: u16, headers: &[(&str, String)], body: &str| {
        let mut s = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        for (k, v) in headers {
            s.push_str(&format!("{k}: {v}\r\n"));
        }
        s.push_str("\r\n");
        s.push_str(body);
        s
    };
    let out = match reply {
        Reply::Content(c) => respond(200, &[], &completion(&c)),
        Reply::Model => respond(200, &[], &completion(&model_answer(&req))),
        Reply::Slow(d) => {
            tokio::time::sleep(d).await;
            respond(200, &[], &completion(&model_answer(&req)))
        }
        Reply::Raw(status, headers, body) => respond(status, &headers, &body),
        Reply::Truncated => "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2000\r\nConnection: close\r\n\r\n{\"choices\": [".to_string(),
        Reply::Stall => {
            let _ = sock
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n{\"choices\": [")
                .await;
            let _ = sock.flush().await;
            tokio::time::sleep(Duration::from_secs(60)).await;
            String::new()
        }
    };
    // Counted out before the answer is written: the client holds its permit until it
    // has read the answer, so this count never exceeds the client's.
    in_flight.fetch_sub(1, Ordering::SeqCst);
    let _ = sock.write_all(out.as_bytes()).await;
    let _ = sock.flush().await;
    let _ = sock.shutdown().await;
}

impl Server {
    pub fn start(script: impl Fn(&Req, usize) -> Reply + Send + Sync + 'static) -> Server {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let script: Script = Arc::new(script);
        let (r, i, p) = (requests.clone(), in_flight.clone(), peak.clone());
        rt.spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                tokio::spawn(serve(sock, script.clone(), r.clone(), i.clone(), p.clone()));
            }
        });
        Server {
            port,
            requests,
            peak,
            _rt: rt,
        }
    }

    pub fn model() -> Server {
        Server::start(|_, _| Reply::Model)
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    pub fn requests(&self) -> Vec<Req> {
        self.requests.lock().unwrap().clone()
    }
}

/// A port with nothing listening.
pub fn refused_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}
