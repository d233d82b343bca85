//! The watches on one etcd member, multiplexed on one bidirectional Watch stream, as etcd's own
//! clientv3 carries them: a task owns the stream, sends a create request per watch and routes each
//! response to its watch by etcd's watch id. etcd answers creates in the order they were sent, so
//! the task pairs each `created` response with the oldest waiting create. A watch whose reader
//! stops reading, or drops its receiver, is cancelled on etcd and its channel closed: the reader
//! starts again from the last revision it saw, as the [`Watch`] contract says. When the stream
//! breaks (the member died), every watch on it closes the same way and the next create opens a
//! new stream.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::proto::etcdserverpb::watch_client::WatchClient;
use super::proto::etcdserverpb::{WatchCancelRequest, WatchCreateRequest, WatchRequest, WatchResponse, watch_request};
use super::proto::mvccpb::{self, event::EventType as EtcdEventType};
use super::{CALL_TIMEOUT, Member, key_value, revision};
use crate::{Event, EventType, Revision, StorageError, Watch};

/// How many events a watch buffers for its reader before it is closed as too slow.
const WATCH_BUFFER: usize = 4096;

/// How often the task looks for watches whose receiver was dropped while no event came.
const SWEEP: Duration = Duration::from_secs(5);

/// A request to the member's watch task.
struct Create {
    request: WatchCreateRequest,
    /// The revision the caller has seen (a compacted start is Gone with it).
    after: Revision,
    reply: oneshot::Sender<Result<Watch, StorageError>>,
}

/// The member's watch task, started on the first watch.
#[derive(Default)]
pub(super) struct Mux {
    commands: Mutex<Option<mpsc::UnboundedSender<Create>>>,
}

impl Mux {
    /// Starts a watch on this member's stream; [`StorageError::Unavailable`] when the member
    /// cannot be reached, so the caller tries another.
    pub(super) async fn create(
        &self,
        member: &Member,
        request: WatchCreateRequest,
        after: Revision,
    ) -> Result<Watch, StorageError> {
        let (reply, answer) = oneshot::channel();
        let command = Create { request, after, reply };
        {
            let mut commands = self.commands.lock().unwrap_or_else(|e| e.into_inner());
            let sent = match commands.as_ref() {
                Some(sender) => sender.send(command).map_err(|mpsc::error::SendError(c)| c),
                None => Err(command),
            };
            // No task yet, or it ended (its runtime was shut down): start one.
            if let Err(unsent) = sent {
                let (tx, rx) = mpsc::unbounded_channel();
                let client = WatchClient::new(member.channel()).max_decoding_message_size(usize::MAX);
                tokio::spawn(run(client, rx));
                let _ = tx.send(unsent);
                *commands = Some(tx);
            }
        }
        match tokio::time::timeout(CALL_TIMEOUT, answer).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(StorageError::Unavailable("the watch stream ended".into())),
            Err(_) => Err(StorageError::Unavailable(format!(
                "no watch created within {CALL_TIMEOUT:?}"
            ))),
        }
    }
}

/// A watch etcd has created.
struct Watcher {
    events: mpsc::Sender<Result<Event, StorageError>>,
    after: Revision,
}

/// Serves creates until the storage is dropped, one stream at a time.
async fn run(client: WatchClient<tonic::transport::Channel>, mut commands: mpsc::UnboundedReceiver<Create>) {
    while let Some(first) = commands.recv().await {
        stream(client.clone(), first, &mut commands).await;
    }
}

/// One Watch stream: from its first create until it breaks or the storage is dropped.
async fn stream(
    mut client: WatchClient<tonic::transport::Channel>,
    first: Create,
    commands: &mut mpsc::UnboundedReceiver<Create>,
) {
    let (requests, outgoing) = mpsc::unbounded_channel::<WatchRequest>();
    let mut pending: VecDeque<Create> = VecDeque::new();
    let mut watchers: HashMap<i64, Watcher> = HashMap::new();
    let send_create = |requests: &mpsc::UnboundedSender<WatchRequest>, create: &Create| {
        let _ = requests.send(WatchRequest {
            request_union: Some(watch_request::RequestUnion::CreateRequest(create.request.clone())),
        });
    };
    send_create(&requests, &first);
    pending.push_back(first);
    // `hasleader` asks etcd to cancel the stream's watches when the member loses its leader, as
    // kube-apiserver's watches do (clientv3's WithRequireLeader): a member cut off from the
    // cluster then closes them, and readers move on, instead of waiting on a member that will
    // not see new events.
    let mut request = tonic::Request::new(UnboundedReceiverStream::new(outgoing));
    request
        .metadata_mut()
        .insert("hasleader", tonic::metadata::MetadataValue::from_static("true"));
    // etcd sends the stream's headers with its first answer, to the create just queued.
    let opened = tokio::time::timeout(CALL_TIMEOUT, client.watch(request)).await;
    let mut incoming = match opened {
        Ok(Ok(response)) => response.into_inner(),
        Ok(Err(status)) => return fail(pending, status.message()),
        Err(_) => return fail(pending, "no answer to the watch"),
    };
    let mut sweep = tokio::time::interval(SWEEP);
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(create) => {
                    send_create(&requests, &create);
                    pending.push_back(create);
                }
                // The storage was dropped: the stream ends with the task.
                None => return,
            },
            message = incoming.message() => match message {
                Ok(Some(response)) => {
                    for id in route(response, &mut pending, &mut watchers) {
                        cancel(&requests, id);
                    }
                }
                Ok(None) => return fail(pending, "the watch stream ended"),
                Err(status) => return fail(pending, status.message()),
            },
            _ = sweep.tick() => {
                let closed: Vec<i64> = watchers.iter().filter(|(_, w)| w.events.is_closed()).map(|(id, _)| *id).collect();
                for id in closed {
                    watchers.remove(&id);
                    cancel(&requests, id);
                }
            }
        }
    }
}

/// Answers every waiting create with Unavailable; the watchers' channels close as they drop.
fn fail(pending: VecDeque<Create>, why: &str) {
    for create in pending {
        let _ = create.reply.send(Err(StorageError::Unavailable(why.to_string())));
    }
}

fn cancel(requests: &mpsc::UnboundedSender<WatchRequest>, watch_id: i64) {
    let _ = requests.send(WatchRequest {
        request_union: Some(watch_request::RequestUnion::CancelRequest(WatchCancelRequest {
            watch_id,
        })),
    });
}

/// Delivers one response; returns the watches to cancel on etcd (their readers are gone or slow).
fn route(response: WatchResponse, pending: &mut VecDeque<Create>, watchers: &mut HashMap<i64, Watcher>) -> Vec<i64> {
    let id = response.watch_id;
    if response.created {
        let Some(create) = pending.pop_front() else {
            return vec![id];
        };
        if response.canceled {
            let _ = create.reply.send(Err(StorageError::Refused(response.cancel_reason)));
            return vec![];
        }
        let (events, watch) = mpsc::channel(WATCH_BUFFER);
        let _ = create.reply.send(Ok(watch));
        watchers.insert(
            id,
            Watcher {
                events,
                after: create.after,
            },
        );
        return vec![];
    }
    if response.canceled {
        // A compacted start revision is Gone; any other cancellation just closes the watch.
        if let Some(w) = watchers.remove(&id)
            && response.compact_revision > 0
        {
            let _ = w.events.try_send(Err(StorageError::Gone {
                requested: w.after,
                oldest: revision(response.compact_revision),
            }));
        }
        return vec![];
    }
    let Some(watcher) = watchers.get_mut(&id) else {
        return vec![];
    };
    for e in response.events {
        let event = event(e);
        if let Ok(e) = &event {
            watcher.after = e.kv.mod_revision;
        }
        if watcher.events.try_send(event).is_err() {
            watchers.remove(&id);
            return vec![id];
        }
    }
    vec![]
}

fn event(e: mvccpb::Event) -> Result<Event, StorageError> {
    let deleted = e.r#type == EtcdEventType::Delete as i32;
    let kv = e.kv.unwrap_or_default();
    let created = kv.create_revision == kv.mod_revision;
    let mut kv = key_value(kv)?;
    let prev = e.prev_kv.map(|p| p.value);
    if deleted {
        // A deletion carries the last value, as the watch cache and selectors need it.
        kv.value = prev.unwrap_or_default();
        return Ok(Event {
            kind: EventType::Deleted,
            kv,
            prev: None,
        });
    }
    let kind = if created { EventType::Added } else { EventType::Modified };
    Ok(Event { kind, kv, prev })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn create(after: Revision) -> (Create, oneshot::Receiver<Result<Watch, StorageError>>) {
        let (reply, answer) = oneshot::channel();
        let request = WatchCreateRequest::default();
        (Create { request, after, reply }, answer)
    }

    fn put(key: &str, created: i64, modified: i64) -> mvccpb::Event {
        mvccpb::Event {
            r#type: EtcdEventType::Put as i32,
            kv: Some(mvccpb::KeyValue {
                key: Bytes::copy_from_slice(key.as_bytes()),
                create_revision: created,
                mod_revision: modified,
                value: Bytes::from_static(b"v"),
                ..Default::default()
            }),
            prev_kv: None,
        }
    }

    fn response(watch_id: i64) -> WatchResponse {
        WatchResponse {
            watch_id,
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn creates_pair_with_answers_in_order_and_events_reach_their_watch() {
        let (mut pending, mut watchers) = (VecDeque::new(), HashMap::new());
        let (a, answer_a) = create(1);
        let (b, answer_b) = create(1);
        pending.extend([a, b]);
        for id in [7, 8] {
            let created = WatchResponse {
                created: true,
                ..response(id)
            };
            assert!(route(created, &mut pending, &mut watchers).is_empty());
        }
        let (mut a, mut b) = (answer_a.await.unwrap().unwrap(), answer_b.await.unwrap().unwrap());
        let events = WatchResponse {
            events: vec![put("/k", 5, 5), put("/k", 5, 6)],
            ..response(8)
        };
        assert!(route(events, &mut pending, &mut watchers).is_empty());
        let first = b.recv().await.unwrap().unwrap();
        assert_eq!((first.kind, first.kv.mod_revision), (EventType::Added, 5));
        assert_eq!(b.recv().await.unwrap().unwrap().kind, EventType::Modified);
        assert!(a.try_recv().is_err(), "watch 7 saw nothing");
        assert_eq!(watchers[&8].after, 6, "the last revision delivered");
    }

    #[tokio::test]
    async fn a_compacted_start_is_gone_and_a_slow_reader_is_cancelled() {
        let (mut pending, mut watchers) = (VecDeque::new(), HashMap::new());
        let (c, answer) = create(3);
        pending.push_back(c);
        route(
            WatchResponse {
                created: true,
                ..response(1)
            },
            &mut pending,
            &mut watchers,
        );
        let mut w = answer.await.unwrap().unwrap();
        let compacted = WatchResponse {
            canceled: true,
            compact_revision: 9,
            ..response(1)
        };
        route(compacted, &mut pending, &mut watchers);
        assert_eq!(
            w.recv().await.unwrap(),
            Err(StorageError::Gone {
                requested: 3,
                oldest: 9
            })
        );
        assert!(w.recv().await.is_none(), "closed after Gone");

        let (c, answer) = create(0);
        pending.push_back(c);
        route(
            WatchResponse {
                created: true,
                ..response(2)
            },
            &mut pending,
            &mut watchers,
        );
        let w = answer.await.unwrap().unwrap();
        let flood: Vec<_> = (1..=WATCH_BUFFER as i64 + 1).map(|r| put("/k", 1, r)).collect();
        let cancelled = route(
            WatchResponse {
                events: flood,
                ..response(2)
            },
            &mut pending,
            &mut watchers,
        );
        assert_eq!(
            cancelled,
            [2],
            "a reader that fell a buffer behind is cancelled on etcd"
        );
        assert!(watchers.is_empty());
        drop(w);
    }

    #[tokio::test]
    async fn a_create_etcd_refuses_is_refused_and_a_stray_creation_is_cancelled() {
        let (mut pending, mut watchers) = (VecDeque::new(), HashMap::new());
        let (c, answer) = create(0);
        pending.push_back(c);
        let refused = WatchResponse {
            created: true,
            canceled: true,
            cancel_reason: "etcdserver: no range".into(),
            ..response(-1)
        };
        route(refused, &mut pending, &mut watchers);
        assert!(matches!(answer.await.unwrap(), Err(StorageError::Refused(m)) if m.contains("no range")));
        assert_eq!(
            route(
                WatchResponse {
                    created: true,
                    ..response(4)
                },
                &mut pending,
                &mut watchers
            ),
            [4]
        );
    }
}
