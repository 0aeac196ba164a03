//! A persistent pool of worker threads for the vector environment: the threads are started
//! once, with the environment, instead of on every call. A call's task runs on the calling
//! thread and on every worker that wakes up before the calling thread has finished it; the
//! task shares its work out itself (the vector environment hands out blocks of games from
//! a counter), so a worker the operating system schedules late (a loaded machine) costs
//! no waiting: the calling thread does its part of the work.
//!
//! Waking a sleeping thread costs tens of microseconds (more on a virtual machine), as
//! long as a whole call of a few dozen games. So a worker that has finished a call watches
//! for the next one for [`SPIN`] before it sleeps, and the calling thread watches for the
//! workers' last blocks the same way before it sleeps: a loop that steps the environment
//! call after call never waits for a wake-up. The watching is bounded, so a pool between
//! calls that are far apart (a policy network's forward pass) only sleeps.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a thread watches for what it waits for before it sleeps.
const SPIN: Duration = Duration::from_micros(200);

/// Watch `ready` for at most [`SPIN`]; whether it became true.
fn spin_until(ready: impl Fn() -> bool) -> bool {
    let t0 = Instant::now();
    loop {
        for _ in 0..64 {
            if ready() {
                return true;
            }
            std::hint::spin_loop();
        }
        if t0.elapsed() >= SPIN {
            return ready();
        }
    }
}

/// The task of one call, borrowed for the call only (see [`Pool::run`]).
type Task = dyn Fn(usize) + Sync;

/// What the calling thread and the workers share.
struct Job {
    /// counts the calls: a worker runs a task when it sees a new generation
    generation: u64,
    /// the call's task while the call is open (a pointer erased of its lifetime)
    task: Option<TaskPtr>,
    /// workers running the current call's task
    running: usize,
    /// a worker's task panicked in the current call
    panicked: bool,
    quit: bool,
    /// workers asleep on `start`, and whether the calling thread sleeps on `done` (a
    /// notification nobody waits for is a system call saved)
    asleep: usize,
    caller_asleep: bool,
}

#[derive(Clone, Copy)]
struct TaskPtr(*const Task);
// SAFETY: the pointee is `Sync` (shared by reference across threads) and outlives every use
// (the caller of `Pool::run` waits until no worker uses it).
unsafe impl Send for TaskPtr {}

struct Shared {
    job: Mutex<Job>,
    start: Condvar,
    done: Condvar,
    /// copies of `job.generation` and `job.running`, written under the lock and watched
    /// without it (the lock decides; the copies only end a watch early)
    generation: AtomicU64,
    running: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Job> {
        // a panic never happens while the lock is held (tasks run unlocked)
        self.job.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `threads - 1` workers beside the calling thread.
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pool({} threads)", self.threads())
    }
}

fn work(shared: &Shared, id: usize) {
    let mut seen = 0;
    loop {
        spin_until(|| shared.generation.load(Ordering::Acquire) != seen);
        let task = {
            let mut job = shared.lock();
            while job.generation == seen && !job.quit {
                job.asleep += 1;
                job = shared.start.wait(job).unwrap_or_else(|e| e.into_inner());
                job.asleep -= 1;
            }
            if job.quit {
                return;
            }
            seen = job.generation;
            // a call already closed by its caller: nothing left to do
            let Some(task) = job.task else { continue };
            job.running += 1;
            shared.running.store(job.running, Ordering::Release);
            task
        };
        // SAFETY: `Pool::run` keeps the task alive until `running` reaches 0 below.
        let f = unsafe { &*task.0 };
        let ok = catch_unwind(AssertUnwindSafe(|| f(id))).is_ok();
        let mut job = shared.lock();
        job.panicked |= !ok;
        job.running -= 1;
        shared.running.store(job.running, Ordering::Release);
        if job.running == 0 && job.caller_asleep {
            shared.done.notify_one();
        }
    }
}

impl Pool {
    /// A pool that runs `threads` tasks at once (`threads >= 1`; 1 starts no thread).
    pub fn new(threads: usize) -> Pool {
        let shared = Arc::new(Shared {
            job: Mutex::new(Job {
                generation: 0,
                task: None,
                running: 0,
                panicked: false,
                quit: false,
                asleep: 0,
                caller_asleep: false,
            }),
            start: Condvar::new(),
            done: Condvar::new(),
            generation: AtomicU64::new(0),
            running: AtomicUsize::new(0),
        });
        let workers = (1..threads.max(1))
            .map(|id| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("hansa-vector-env-{id}"))
                    .spawn(move || work(&shared, id))
                    .expect("the vector environment starts its worker threads")
            })
            .collect();
        Pool { shared, workers }
    }

    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Run `task(0)` on the calling thread and `task(i)` on every worker `i` that joins
    /// before `task(0)` returns; returns when every started task has finished. The task
    /// must share its work out itself (a worker may not join). A panic in any task is
    /// raised again here, after every started task has finished.
    pub fn run(&self, task: &(dyn Fn(usize) + Sync)) {
        if self.workers.is_empty() {
            task(0);
            return;
        }
        // SAFETY: only the lifetime is erased; a worker takes the pointer (and counts
        // itself in `running`) only while the call is open, under the lock, and drops its
        // use before leaving `running`; this function closes the call and waits for
        // `running` to reach 0 before returning (also when `task(0)` panics).
        let ptr = TaskPtr(unsafe {
            std::mem::transmute::<&(dyn Fn(usize) + Sync + '_), &'static Task>(task)
        });
        let wake = {
            let mut job = self.shared.lock();
            job.generation += 1;
            job.task = Some(ptr);
            job.running = 0;
            job.panicked = false;
            self.shared.running.store(0, Ordering::Release);
            self.shared
                .generation
                .store(job.generation, Ordering::Release);
            job.asleep > 0
        };
        if wake {
            self.shared.start.notify_all();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| task(0)));
        let panicked = {
            let mut job = self.shared.lock();
            // close the call: a worker waking from now on leaves the task alone
            job.task = None;
            if job.running > 0 {
                // the workers finish their last blocks: watch for it, then sleep on it
                drop(job);
                spin_until(|| self.shared.running.load(Ordering::Acquire) == 0);
                job = self.shared.lock();
            }
            while job.running > 0 {
                job.caller_asleep = true;
                job = self
                    .shared
                    .done
                    .wait(job)
                    .unwrap_or_else(|e| e.into_inner());
                job.caller_asleep = false;
            }
            job.panicked
        };
        if let Err(e) = mine {
            resume_unwind(e);
        }
        if panicked {
            panic!("a vector environment worker thread panicked");
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.lock().quit = true;
        self.shared.start.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_item_is_done_once_per_call_whoever_joins() {
        for threads in [1, 2, 3] {
            let pool = Pool::new(threads);
            let hits: Vec<AtomicUsize> = (0..100).map(|_| AtomicUsize::new(0)).collect();
            for _ in 0..50 {
                let next = AtomicUsize::new(0);
                pool.run(&|_| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(h) = hits.get(i) else { break };
                    h.fetch_add(1, Ordering::Relaxed);
                });
            }
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 50));
        }
    }

    /// Each thread runs the task with its own id (bit `1 << id` set): whether worker 1
    /// joined within 10 s, the calling thread waiting (boundedly) for it; the worker's
    /// part then takes `worker_work`.
    fn run_joined(pool: &Pool, worker_work: std::time::Duration) -> bool {
        let seen = AtomicUsize::new(0);
        pool.run(&|i| {
            seen.fetch_or(1 << i, Ordering::SeqCst);
            if i == 0 {
                let t0 = std::time::Instant::now();
                while seen.load(Ordering::SeqCst) != 3 && t0.elapsed().as_secs() < 10 {
                    std::thread::yield_now();
                }
            } else {
                std::thread::sleep(worker_work);
            }
        });
        seen.load(Ordering::SeqCst) == 3
    }

    #[test]
    fn a_worker_that_joins_runs_the_task_with_its_own_id() {
        assert!(run_joined(&Pool::new(2), std::time::Duration::ZERO));
    }

    #[test]
    fn a_worker_asleep_after_its_watch_is_woken_and_a_caller_asleep_is_woken_by_it() {
        let pool = Pool::new(2);
        let none = std::time::Duration::ZERO;
        assert!(run_joined(&pool, none));
        // far longer than SPIN: the worker has gone to sleep, so the call must wake it
        std::thread::sleep(SPIN * 20);
        assert!(run_joined(&pool, none));
        // the worker's part outlasts the caller's watch: the caller sleeps, the worker
        // wakes it (a lost wake-up would hang here)
        assert!(run_joined(&pool, SPIN * 20));
        // and back to back, within the watch
        for _ in 0..100 {
            assert!(run_joined(&pool, none));
        }
    }

    #[test]
    fn a_worker_panic_is_raised_by_the_caller_and_the_pool_still_works() {
        let pool = Pool::new(2);
        let r = catch_unwind(AssertUnwindSafe(|| pool.run(&|_| panic!("boom"))));
        assert!(r.is_err());
        let n = AtomicUsize::new(0);
        pool.run(&|_| {
            n.fetch_add(1, Ordering::Relaxed);
        });
        assert!((1..=2).contains(&n.load(Ordering::Relaxed)));
    }
}
