//! Terminal events on their own task: crossterm's `EventStream` is polled there and
//! forwarded as [`Event`]s, so the app loop only `select!`s over channels and a
//! cancellation token ends the task cleanly on quit.

use crossterm::event::{Event as CtEvent, EventStream, KeyEvent, MouseEvent};
use futures::StreamExt;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tokio_util::sync::CancellationToken;

/// What the terminal reported.
#[derive(Debug, Clone)]
pub enum Event {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize,
}

/// Starts the event task; it ends when `cancel` fires or the terminal closes.
pub fn spawn(cancel: CancellationToken) -> UnboundedReceiver<Event> {
    let (tx, rx) = unbounded_channel();
    tokio::spawn(async move {
        let mut stream = EventStream::new();
        loop {
            let next = tokio::select! {
                _ = cancel.cancelled() => break,
                ev = stream.next() => ev,
            };
            let ev = match next {
                Some(Ok(CtEvent::Key(k))) => Event::Key(k),
                Some(Ok(CtEvent::Mouse(m))) => Event::Mouse(m),
                Some(Ok(CtEvent::Resize(_, _))) => Event::Resize,
                Some(Ok(_)) => continue,
                Some(Err(e)) => {
                    tracing::warn!(error = %e, "terminal event error");
                    break;
                }
                None => break,
            };
            if tx.send(ev).is_err() {
                break;
            }
        }
    });
    rx
}
