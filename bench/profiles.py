"""Sizes and repetition counts of the three run modes.

``full`` is the mode of record (about 15-20 minutes on 2 cores); ``quick``
runs every case at small sizes in about a minute; ``smoke`` is the test
suite's mode (every case, smallest sizes, a few seconds of work).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Profile:
    name: str
    # 1. graph turn
    turn_sizes: tuple[int, ...]
    turn_reps: dict[int, int]
    warmup: int
    crowd: tuple[int, int, int]  # messages per session, sessions, repetitions
    # 2. put / get_tuple / get_state / list
    op_sizes: tuple[int, ...]
    put_reps: int
    get_reps: int
    state_reps: int
    list_checkpoints: int
    list_reps: int
    # 3. concurrency
    sessions: tuple[int, ...]
    window_s: float
    windows: int
    # 4. fork / copy_thread
    fork_messages: int
    fork_reps: int
    copy_turns: int
    copy_reps: int
    # 5. store
    store_users: int
    store_per_user: tuple[int, ...]  # memories per user at each size
    search_reps: dict[int, int]  # by memories per user
    client_search_reps: dict[int, int]  # qdrant-client local mode is slow at scale
    get_reps_store: int
    put_reps_store: int
    # 6. forget
    forget_memories: int
    forget_threads: int
    forget_reps: int
    # 7. recall injection
    recall_turns: int = 50
    # 8. memory
    memory_sessions: int = 10_000
    extra: dict = field(default_factory=dict)


FULL = Profile(
    name="full",
    turn_sizes=(10, 100, 1000),
    turn_reps={10: 60, 100: 60, 1000: 30},
    warmup=3,
    crowd=(1000, 20, 3),
    op_sizes=(10, 100, 1000),
    put_reps=40,
    get_reps=60,
    state_reps=40,
    list_checkpoints=100,
    list_reps=10,
    sessions=(8, 32),
    window_s=4.0,
    windows=3,
    fork_messages=1000,
    fork_reps=30,
    copy_turns=10,
    copy_reps=10,
    store_users=100,
    store_per_user=(100, 1000),  # 10k and 100k memories
    search_reps={100: 100, 1000: 100},
    client_search_reps={100: 30, 1000: 8},
    get_reps_store=60,
    put_reps_store=40,
    forget_memories=1000,
    forget_threads=20,
    forget_reps=3,
)

QUICK = Profile(
    name="quick",
    memory_sessions=1_000,
    turn_sizes=(10, 100),
    turn_reps={10: 8, 100: 8},
    warmup=2,
    crowd=(100, 5, 1),
    op_sizes=(10, 100),
    put_reps=10,
    get_reps=15,
    state_reps=10,
    list_checkpoints=100,
    list_reps=5,
    sessions=(8, 32),
    window_s=1.0,
    windows=1,
    fork_messages=300,
    fork_reps=6,
    copy_turns=3,
    copy_reps=3,
    store_users=100,
    store_per_user=(20,),  # 2k memories
    search_reps={20: 20},
    client_search_reps={20: 10},
    get_reps_store=15,
    put_reps_store=10,
    forget_memories=100,
    forget_threads=5,
    forget_reps=1,
)

SMOKE = Profile(
    name="smoke",
    memory_sessions=60,
    turn_sizes=(10,),
    turn_reps={10: 2},
    warmup=1,
    crowd=(10, 2, 1),
    op_sizes=(10,),
    put_reps=3,
    get_reps=3,
    state_reps=3,
    list_checkpoints=10,
    list_reps=2,
    sessions=(2, 4),
    window_s=0.15,
    windows=1,
    fork_messages=40,
    fork_reps=2,
    copy_turns=2,
    copy_reps=2,
    store_users=10,
    store_per_user=(8,),
    search_reps={8: 3},
    client_search_reps={8: 3},
    get_reps_store=3,
    put_reps_store=3,
    forget_memories=8,
    forget_threads=2,
    forget_reps=1,
    recall_turns=10,
)

PROFILES = {p.name: p for p in (FULL, QUICK, SMOKE)}
