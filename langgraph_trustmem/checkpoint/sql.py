"""Every SQL statement of the checkpointer, and its append-only migrations.

Identifiers never reach a column raw: ``thread_key``, ``user_key`` and
``run_key`` are HMACs (see ``crypto.KeyRing.hash_id``). Channel values,
writes, checkpoint headers and metadata are AES-GCM envelopes. What stays in
plaintext is structural: namespaces, channel names, version counters, task
ids and paths, the checkpoint's ``source`` and ``step``, timestamps and
trust ranks.

To change the schema, append to ``MIGRATIONS``; never edit an entry that has
shipped. The position of a migration is its version.
"""

import functools

MIGRATIONS = [
    "CREATE TABLE IF NOT EXISTS trustmem_checkpoint_migrations (v INTEGER PRIMARY KEY)",
    """
    CREATE TABLE IF NOT EXISTS trustmem_threads (
        thread_key   BYTEA PRIMARY KEY,
        thread_ct    BYTEA NOT NULL,
        user_key     BYTEA,
        head_branch  INTEGER NOT NULL DEFAULT 0,
        head_level   SMALLINT NOT NULL,
        level        SMALLINT NOT NULL,
        fork_pending BOOLEAN NOT NULL DEFAULT false,
        status       TEXT NOT NULL DEFAULT 'active',
        created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
        touched_at   TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    "CREATE INDEX IF NOT EXISTS trustmem_threads_user_idx ON trustmem_threads (user_key)",
    """
    CREATE TABLE IF NOT EXISTS trustmem_branches (
        thread_key    BYTEA NOT NULL,
        branch        INTEGER NOT NULL,
        level         SMALLINT NOT NULL,
        parent_branch INTEGER,
        forked_from   TEXT,
        sealed_at     TIMESTAMPTZ,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (thread_key, branch)
    )""",
    """
    CREATE TABLE IF NOT EXISTS trustmem_checkpoints (
        thread_key           BYTEA NOT NULL,
        checkpoint_ns        TEXT NOT NULL DEFAULT '',
        checkpoint_id        TEXT NOT NULL,
        branch               INTEGER NOT NULL DEFAULT 0,
        parent_checkpoint_id TEXT,
        run_key              BYTEA,
        source               TEXT,
        step                 INTEGER,
        versions             JSONB NOT NULL,
        payload              BYTEA NOT NULL,
        created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (thread_key, checkpoint_ns, checkpoint_id)
    )""",
    "CREATE INDEX IF NOT EXISTS trustmem_checkpoints_run_idx ON trustmem_checkpoints (run_key)",
    """
    CREATE TABLE IF NOT EXISTS trustmem_blobs (
        thread_key    BYTEA NOT NULL,
        checkpoint_ns TEXT NOT NULL DEFAULT '',
        channel       TEXT NOT NULL,
        version       TEXT NOT NULL,
        blob          BYTEA NOT NULL,
        PRIMARY KEY (thread_key, checkpoint_ns, channel, version)
    )""",
    """
    CREATE TABLE IF NOT EXISTS trustmem_writes (
        thread_key    BYTEA NOT NULL,
        checkpoint_ns TEXT NOT NULL DEFAULT '',
        checkpoint_id TEXT NOT NULL,
        task_id       TEXT NOT NULL,
        task_path     TEXT NOT NULL DEFAULT '',
        idx           INTEGER NOT NULL,
        channel       TEXT NOT NULL,
        blob          BYTEA NOT NULL,
        PRIMARY KEY (thread_key, checkpoint_ns, checkpoint_id, task_id, idx)
    )""",
    # Ciphertext does not compress: skip PostgreSQL's attempt at it.
    "ALTER TABLE trustmem_blobs ALTER COLUMN blob SET STORAGE EXTERNAL",
    "ALTER TABLE trustmem_writes ALTER COLUMN blob SET STORAGE EXTERNAL",
    "ALTER TABLE trustmem_checkpoints ALTER COLUMN payload SET STORAGE EXTERNAL",
    # Integrity of the session (did content from outside enter it?) and a
    # keyed MAC over every column that decides access, checked on each read.
    "ALTER TABLE trustmem_threads ADD COLUMN IF NOT EXISTS tainted BOOLEAN NOT NULL DEFAULT false",
    "ALTER TABLE trustmem_threads ADD COLUMN IF NOT EXISTS acl_mac BYTEA",
    "ALTER TABLE trustmem_branches ADD COLUMN IF NOT EXISTS acl_mac BYTEA",
    # The latest root checkpoint: a run that started from the thread's latest
    # state may only continue from it (one run at a time per thread).
    "ALTER TABLE trustmem_threads ADD COLUMN IF NOT EXISTS root_head TEXT",
    # A sealed value of up to a page stays in its row: moved out of line, it
    # costs a second heap and index insert on every write (a ten-message chat
    # is ~3 KB). Larger values still go to the TOAST table.
    "ALTER TABLE trustmem_blobs SET (toast_tuple_target = 8160)",
    "ALTER TABLE trustmem_writes SET (toast_tuple_target = 8160)",
    "ALTER TABLE trustmem_checkpoints SET (toast_tuple_target = 8160)",
]

# The columns of a thread that decide who may see what, in the order
# ``base.SessionState.from_row`` reads them; ``acl_mac`` authenticates them.
ACL_COLUMNS = (
    "t.user_key, t.head_branch, t.head_level, t.level, t.status, t.fork_pending, t.tainted, t.acl_mac"
)

SELECT_MIGRATION_SQL = "SELECT v FROM trustmem_checkpoint_migrations ORDER BY v DESC LIMIT 1"
INSERT_MIGRATION_SQL = "INSERT INTO trustmem_checkpoint_migrations (v) VALUES (%s) ON CONFLICT DO NOTHING"
MIGRATION_LOCK_SQL = "SELECT pg_advisory_xact_lock(7239114501)"

# One round trip per put: touch (or create) the thread, store the new blobs
# and the checkpoint on the thread's head branch. Nothing is stored when the
# thread was terminated, when the checkpoint holds content above the head
# branch's own level, or when it continues from a checkpoint on a sealed
# branch; the last columns say which.
PUT_SQL = """
WITH th AS (
    INSERT INTO trustmem_threads AS t (thread_key, thread_ct, user_key, level, head_level, acl_mac, root_head)
    VALUES (%(tk)s, %(tct)s, %(uk)s, %(level)s, %(level)s, %(mac)s,
        CASE WHEN %(ns)s = '' THEN %(cid)s END)
    ON CONFLICT (thread_key) DO UPDATE SET touched_at = now(),
        -- decided on the locked, current row: a concurrent run's checkpoint is seen here
        root_head = CASE WHEN %(ns)s = '' AND t.status = 'active' AND %(rank)s <= t.head_level
            AND t.head_branch = %(branch)s AND (t.user_key IS NULL OR t.user_key = %(uk)s)
            AND (NOT %(linear)s OR t.root_head IS NULL OR t.root_head = %(parent)s
                 OR t.root_head = %(cid)s)
            AND NOT EXISTS (SELECT 1 FROM trustmem_checkpoints p
                WHERE p.thread_key = %(tk)s AND p.checkpoint_ns = %(ns)s
                AND p.checkpoint_id = %(parent)s AND p.branch <> t.head_branch)
            THEN %(cid)s ELSE t.root_head END
    RETURNING t.user_key, t.head_branch, t.head_level, t.level, t.status, t.fork_pending, t.tainted,
        t.acl_mac, t.root_head
), br AS (
    SELECT th.*,
        EXISTS (SELECT 1 FROM trustmem_checkpoints p
                WHERE p.thread_key = %(tk)s AND p.checkpoint_ns = %(ns)s
                AND p.checkpoint_id = %(parent)s AND p.branch <> th.head_branch) AS parent_sealed
    FROM th
), ok AS (
    SELECT head_branch FROM br
    WHERE status = 'active' AND %(rank)s <= head_level AND NOT parent_sealed
        AND head_branch = %(branch)s AND (user_key IS NULL OR user_key = %(uk)s)
        AND (%(ns)s <> '' OR root_head = %(cid)s)
), bl AS (
    INSERT INTO trustmem_blobs (thread_key, checkpoint_ns, channel, version, blob)
    SELECT %(tk)s, %(ns)s, u.channel, u.version, u.blob
    FROM unnest(%(channels)s::text[], %(bversions)s::text[], %(blobs)b::bytea[])
        AS u(channel, version, blob)
    WHERE EXISTS (SELECT 1 FROM ok)
    ON CONFLICT (thread_key, checkpoint_ns, channel, version) DO NOTHING
), cp AS (
    INSERT INTO trustmem_checkpoints (thread_key, checkpoint_ns, checkpoint_id, branch,
        parent_checkpoint_id, run_key, source, step, versions, payload)
    SELECT %(tk)s, %(ns)s, %(cid)s, ok.head_branch, %(parent)s, %(rk)s, %(source)s,
        %(step)s, %(versions)s, %(payload)s
    FROM ok
    ON CONFLICT (thread_key, checkpoint_ns, checkpoint_id) DO UPDATE
        SET versions = EXCLUDED.versions, payload = EXCLUDED.payload,
            source = EXCLUDED.source, step = EXCLUDED.step, run_key = EXCLUDED.run_key
    RETURNING branch
)
SELECT br.user_key, br.head_branch, br.head_level, br.level, br.status, br.fork_pending,
    br.tainted, br.acl_mac, (SELECT count(*) FROM cp), br.parent_sealed,
    %(ns)s = '' AND br.root_head IS DISTINCT FROM %(cid)s AS behind
FROM br
"""

_WRITES_INSERT = """
INSERT INTO trustmem_writes (thread_key, checkpoint_ns, checkpoint_id, task_id, task_path,
    idx, channel, blob)
SELECT %(tk)s, %(ns)s, %(cid)s, %(task_id)s, %(task_path)s, u.idx, u.channel, u.blob
FROM unnest(%(idx)s::int[], %(channels)s::text[], %(blobs)b::bytea[]) AS u(idx, channel, blob)
WHERE NOT EXISTS (
    SELECT 1 FROM trustmem_threads WHERE thread_key = %(tk)s
    AND (status <> 'active' OR (user_key IS NOT NULL AND user_key IS DISTINCT FROM %(uk)s))
)
ON CONFLICT (thread_key, checkpoint_ns, checkpoint_id, task_id, idx) DO """
UPSERT_WRITES_SQL = _WRITES_INSERT + "UPDATE SET channel = EXCLUDED.channel, blob = EXCLUDED.blob"
INSERT_WRITES_SQL = _WRITES_INSERT + "NOTHING"

# A checkpoint with its blobs, pending writes and thread state, and its
# parent's pending sends (checkpoints older than format 4 kept Send packets
# there; they are migrated on read). Callers add the WHERE clause; branch
# visibility is decided by the join on the thread. ``{blob}`` is the blob
# itself, or, for a read that names the envelopes whose values it has
# decoded already (by their nonce, bytes 9-20), only those envelopes'
# 20-byte header: the rest is neither read from disk nor sent.
_SELECT_TEMPLATE = """
SELECT c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.branch, c.versions,
    c.payload,
    (SELECT array_agg(array[convert_to(v.key, 'UTF8'), convert_to(v.value, 'UTF8'),
        (SELECT {blob} FROM trustmem_blobs b WHERE b.thread_key = c.thread_key
         AND b.checkpoint_ns = c.checkpoint_ns AND b.channel = v.key AND b.version = v.value)])
     FROM jsonb_each_text(c.versions) v) AS blobs,
    (SELECT array_agg(array[convert_to(w.task_id, 'UTF8'), convert_to(w.channel, 'UTF8'),
        convert_to(w.task_path, 'UTF8'), convert_to(w.idx::text, 'UTF8'), w.blob]
        ORDER BY w.task_path, w.task_id, w.idx)
     FROM trustmem_writes w WHERE w.thread_key = c.thread_key
        AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS writes,
    t.user_key, t.head_branch, t.head_level, t.level, t.status, t.fork_pending, t.tainted, t.acl_mac,
    t.thread_ct, t.thread_key,
    (SELECT array_agg(array[convert_to(w.task_id, 'UTF8'), convert_to(w.channel, 'UTF8'),
        convert_to(w.task_path, 'UTF8'), convert_to(w.idx::text, 'UTF8'), w.blob]
        ORDER BY w.task_path, w.task_id, w.idx)
     FROM trustmem_writes w WHERE w.thread_key = c.thread_key AND w.checkpoint_ns = c.checkpoint_ns
        AND w.checkpoint_id = c.parent_checkpoint_id AND w.channel = '__pregel_tasks') AS parent_sends
FROM trustmem_threads t
JOIN trustmem_checkpoints c ON c.thread_key = t.thread_key
"""
_BLOB_UNLESS_KNOWN = (
    "CASE WHEN substring(b.blob FROM 9 FOR 12) = ANY(%(known)s::bytea[]) "
    "THEN substring(b.blob FROM 1 FOR 20) ELSE b.blob END"
)
_SELECT_COLUMNS = _SELECT_TEMPLATE.format(blob="b.blob")
_SELECT_UNLESS_KNOWN = _SELECT_TEMPLATE.format(blob=_BLOB_UNLESS_KNOWN)

GET_LATEST_SQL = (
    _SELECT_UNLESS_KNOWN
    + """WHERE t.thread_key = %(tk)s AND c.checkpoint_ns = %(ns)s AND c.branch = t.head_branch
ORDER BY c.checkpoint_id DESC LIMIT 1"""
)
GET_BY_ID_SQL = (
    _SELECT_UNLESS_KNOWN
    + """WHERE t.thread_key = %(tk)s AND c.checkpoint_ns = %(ns)s AND c.checkpoint_id = %(cid)s
AND c.branch = t.head_branch"""
)

THREAD_STATE_SQL = f"SELECT {ACL_COLUMNS} FROM trustmem_threads t WHERE thread_key = %s"
THREAD_LOCK_SQL = THREAD_STATE_SQL + " FOR UPDATE"
# Every change of a thread's access state goes through this one statement,
# with the MAC of the new state.
ACL_UPDATE_SQL = """
UPDATE trustmem_threads SET head_branch = %(head_branch)s, head_level = %(head_level)s,
    level = %(level)s, status = %(status)s, fork_pending = %(fork_pending)s, tainted = %(tainted)s,
    acl_mac = %(mac)s, touched_at = now()
WHERE thread_key = %(tk)s
"""
# A thread created by a state change before its first checkpoint is stored.
THREAD_INSERT_SQL = """
INSERT INTO trustmem_threads (thread_key, thread_ct, user_key, head_branch, head_level, level,
    fork_pending, status, tainted, acl_mac)
VALUES (%(tk)s, %(tct)s, %(owner)s, %(head_branch)s, %(head_level)s, %(level)s, %(fork_pending)s,
    %(status)s, %(tainted)s, %(mac)s)
ON CONFLICT (thread_key) DO NOTHING
RETURNING head_branch
"""

LIST_SQL = _SELECT_COLUMNS  # plus a WHERE clause built by ``list_query``

# A branch's level and whether it is sealed, with their MAC. The level a
# head branch had before its first degrade is recorded once; sealing it
# records the level it keeps.
BRANCH_RECORD_SQL = """
INSERT INTO trustmem_branches (thread_key, branch, level, acl_mac)
VALUES (%(tk)s, %(branch)s, %(level)s, %(mac)s) ON CONFLICT DO NOTHING
"""
# The fork, one transaction: lock the thread, seal its head branch, open a
# new one at the lower level whose first checkpoint has no parent, so no
# history above the new level is reachable from the head.
FORK_TOP_SQL = "SELECT COALESCE(max(branch), 0) FROM trustmem_branches WHERE thread_key = %s"
FORK_SEAL_SQL = """
INSERT INTO trustmem_branches (thread_key, branch, level, parent_branch, forked_from, sealed_at, acl_mac)
VALUES (%(tk)s, %(branch)s, %(level)s, NULL, NULL, now(), %(mac)s)
ON CONFLICT (thread_key, branch) DO UPDATE
    SET sealed_at = now(), level = EXCLUDED.level, acl_mac = EXCLUDED.acl_mac
"""
FORK_OPEN_SQL = """
INSERT INTO trustmem_branches (thread_key, branch, level, parent_branch, forked_from, acl_mac)
VALUES (%(tk)s, %(branch)s, %(level)s, %(parent_branch)s, %(forked_from)s, %(mac)s)
"""
BRANCH_LEVEL_SQL = """SELECT level, sealed_at IS NOT NULL, acl_mac FROM trustmem_branches
WHERE thread_key = %s AND branch = %s"""
# The run that let untrusted content in: from its first checkpoint on, found
# by its run id, or else from the head branch's latest input checkpoint.
TERMINATE_RUN_START_SQL = """
SELECT checkpoint_id, parent_checkpoint_id FROM trustmem_checkpoints
WHERE thread_key = %s AND branch = %s AND checkpoint_ns = '' AND run_key = %s
ORDER BY checkpoint_id ASC LIMIT 1
"""
TERMINATE_LAST_INPUT_SQL = """
SELECT checkpoint_id, parent_checkpoint_id FROM trustmem_checkpoints
WHERE thread_key = %s AND branch = %s AND checkpoint_ns = '' AND source = 'input'
ORDER BY checkpoint_id DESC LIMIT 1
"""
TERMINATE_DROP_SQL = (
    """DELETE FROM trustmem_writes WHERE thread_key = %(tk)s AND (checkpoint_id >= %(cid)s
    OR checkpoint_id = %(parent)s)""",
    """DELETE FROM trustmem_checkpoints WHERE thread_key = %(tk)s AND branch = %(branch)s
    AND checkpoint_id >= %(cid)s""",
)

BRANCHES_SQL = f"""
SELECT {ACL_COLUMNS}, b.branch, b.level, b.parent_branch, b.forked_from,
    b.sealed_at, b.created_at, b.acl_mac
FROM trustmem_threads t LEFT JOIN trustmem_branches b ON b.thread_key = t.thread_key
WHERE t.thread_key = %s ORDER BY b.branch
"""

DELETE_THREAD_SQL = (
    "DELETE FROM trustmem_writes WHERE thread_key = ANY(%s)",
    "DELETE FROM trustmem_blobs WHERE thread_key = ANY(%s)",
    "DELETE FROM trustmem_checkpoints WHERE thread_key = ANY(%s)",
    "DELETE FROM trustmem_branches WHERE thread_key = ANY(%s)",
    "DELETE FROM trustmem_threads WHERE thread_key = ANY(%s)",
)

LIST_THREADS_SQL = """
SELECT t.thread_key, t.thread_ct, t.level, t.status, t.head_branch, t.created_at, t.touched_at,
    (SELECT count(*) FROM trustmem_checkpoints c WHERE c.thread_key = t.thread_key) AS checkpoints
FROM trustmem_threads t ORDER BY t.touched_at DESC LIMIT %s
"""
BRANCH_SIZES_SQL = """
SELECT branch, count(*) FROM trustmem_checkpoints WHERE thread_key = %s GROUP BY branch ORDER BY branch
"""

THREADS_OF_USER_SQL = "SELECT thread_key FROM trustmem_threads WHERE user_key = %s"

DELETE_FOR_RUNS_SQL = (
    """DELETE FROM trustmem_writes w USING trustmem_checkpoints c
    WHERE c.run_key = ANY(%s) AND w.thread_key = c.thread_key
    AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id""",
    "DELETE FROM trustmem_checkpoints WHERE run_key = ANY(%s) RETURNING thread_key",
)
FORGET_ROOT_HEAD_SQL = "UPDATE trustmem_threads SET root_head = NULL WHERE thread_key = ANY(%s)"
# Blobs that no remaining checkpoint of the thread refers to.
DELETE_ORPHAN_BLOBS_SQL = """
DELETE FROM trustmem_blobs b WHERE b.thread_key = ANY(%s) AND NOT EXISTS (
    SELECT 1 FROM trustmem_checkpoints c
    WHERE c.thread_key = b.thread_key AND c.checkpoint_ns = b.checkpoint_ns
    AND c.versions ->> b.channel = b.version)
"""

COPY_SELECT_SQL = {
    "thread": f"""SELECT {ACL_COLUMNS}, t.thread_ct FROM trustmem_threads t WHERE thread_key = %s""",
    "branches": """SELECT branch, level, parent_branch, forked_from, sealed_at, acl_mac
        FROM trustmem_branches WHERE thread_key = %s""",
    "checkpoints": """SELECT checkpoint_ns, checkpoint_id, branch, parent_checkpoint_id, run_key,
        source, step, versions, payload FROM trustmem_checkpoints WHERE thread_key = %s""",
    "blobs": """SELECT checkpoint_ns, channel, version, blob FROM trustmem_blobs
        WHERE thread_key = %s""",
    "writes": """SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, blob
        FROM trustmem_writes WHERE thread_key = %s""",
}
COPY_TARGET_EXISTS_SQL = "SELECT 1 FROM trustmem_threads WHERE thread_key = %s"
COPY_INSERT_SQL = {
    "branches": """INSERT INTO trustmem_branches (thread_key, branch, level, parent_branch,
        forked_from, sealed_at, acl_mac) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING""",
    "checkpoints": """INSERT INTO trustmem_checkpoints (thread_key, checkpoint_ns, checkpoint_id,
        branch, parent_checkpoint_id, run_key, source, step, versions, payload)
        VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING""",
    "blobs": """INSERT INTO trustmem_blobs (thread_key, checkpoint_ns, channel, version, blob)
        VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING""",
    "writes": """INSERT INTO trustmem_writes (thread_key, checkpoint_ns, checkpoint_id, task_id,
        task_path, idx, channel, blob) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
        ON CONFLICT DO NOTHING""",
}

# keep_latest on the head branch: the newest checkpoint of each namespace
# stays, with its writes; sealed branches are a record and are left intact.
PRUNE_KEEP_LATEST_SQL = (
    """CREATE TEMP TABLE IF NOT EXISTS trustmem_prune_keep (checkpoint_ns TEXT,
    checkpoint_id TEXT) ON COMMIT DROP""",
    """INSERT INTO trustmem_prune_keep SELECT DISTINCT ON (c.checkpoint_ns) c.checkpoint_ns,
    c.checkpoint_id FROM trustmem_checkpoints c JOIN trustmem_threads t
    ON t.thread_key = c.thread_key AND t.head_branch = c.branch
    WHERE c.thread_key = %(tk)s ORDER BY c.checkpoint_ns, c.checkpoint_id DESC""",
    """DELETE FROM trustmem_writes w USING trustmem_threads t, trustmem_checkpoints c
    WHERE w.thread_key = %(tk)s AND t.thread_key = w.thread_key AND c.thread_key = w.thread_key
    AND c.checkpoint_ns = w.checkpoint_ns AND c.checkpoint_id = w.checkpoint_id
    AND c.branch = t.head_branch AND NOT EXISTS (SELECT 1 FROM trustmem_prune_keep k
        WHERE k.checkpoint_ns = w.checkpoint_ns AND k.checkpoint_id = w.checkpoint_id)""",
    """DELETE FROM trustmem_checkpoints c USING trustmem_threads t
    WHERE c.thread_key = %(tk)s AND t.thread_key = c.thread_key AND c.branch = t.head_branch
    AND NOT EXISTS (SELECT 1 FROM trustmem_prune_keep k
        WHERE k.checkpoint_ns = c.checkpoint_ns AND k.checkpoint_id = c.checkpoint_id)""",
    """UPDATE trustmem_checkpoints c SET parent_checkpoint_id = NULL
    FROM trustmem_prune_keep k WHERE c.thread_key = %(tk)s
    AND k.checkpoint_ns = c.checkpoint_ns AND k.checkpoint_id = c.checkpoint_id""",
)

# Retention: threads idle too long or older than their maximum age, deleted
# with the condition checked again on the locked row in the deleting
# statement, so a thread that took a turn meanwhile is kept.
_EXPIRED = """((%(idle)s::float8 IS NOT NULL AND {t}touched_at < now() - make_interval(secs => %(idle)s))
   OR (%(age)s::float8 IS NOT NULL AND {t}created_at < now() - make_interval(secs => %(age)s)))"""
SWEEP_THREADS_SQL = f"""
DELETE FROM trustmem_threads t
WHERE t.thread_key IN (
    SELECT thread_key FROM trustmem_threads WHERE {_EXPIRED.format(t="")}
    LIMIT %(limit)s FOR UPDATE SKIP LOCKED)
AND {_EXPIRED.format(t="t.")}
RETURNING t.thread_key
"""
DELETE_THREAD_ROWS_SQL = DELETE_THREAD_SQL[:-1]  # everything but the thread row itself

# Key rotation: rows sealed under one of the ring's older keys.
ROTATE_SELECT_SQL = {
    "checkpoints": """SELECT thread_key, checkpoint_ns, checkpoint_id, payload
        FROM trustmem_checkpoints WHERE substring(payload from 5 for 4) = ANY(%s) LIMIT %s""",
    "blobs": """SELECT thread_key, checkpoint_ns, channel, version, blob
        FROM trustmem_blobs WHERE substring(blob from 5 for 4) = ANY(%s) LIMIT %s""",
    "writes": """SELECT thread_key, checkpoint_ns, checkpoint_id, task_id, idx, channel, blob
        FROM trustmem_writes WHERE substring(blob from 5 for 4) = ANY(%s) LIMIT %s""",
    "threads": """SELECT thread_key, thread_ct FROM trustmem_threads
        WHERE substring(thread_ct from 5 for 4) = ANY(%s) LIMIT %s""",
}
ROTATE_UPDATE_SQL = {
    "checkpoints": """UPDATE trustmem_checkpoints SET payload = %s
        WHERE thread_key = %s AND checkpoint_ns = %s AND checkpoint_id = %s""",
    "blobs": """UPDATE trustmem_blobs SET blob = %s WHERE thread_key = %s AND checkpoint_ns = %s
        AND channel = %s AND version = %s""",
    "writes": """UPDATE trustmem_writes SET blob = %s WHERE thread_key = %s
        AND checkpoint_ns = %s AND checkpoint_id = %s AND task_id = %s AND idx = %s
        AND channel = %s""",
    "threads": "UPDATE trustmem_threads SET thread_ct = %s WHERE thread_key = %s",
}

# The header of one sealed envelope: which key sealed this database's rows
# (checked when a key check value is first recorded).
SEALED_SAMPLE_SQL = "SELECT substring(payload from 1 for 20) FROM trustmem_checkpoints LIMIT 1"

# LangGraph's DeltaChannel history: a page of a checkpoint's ancestors on one
# branch (nearest first), each with its pending writes and its blobs for the
# requested channels. One round trip per page instead of one read per
# ancestor; the walk stops at the branch's root, as reads do, and after the
# first ancestor holding a value of every requested channel (where replay
# starts: LangGraph snapshots a delta channel every 100 updates, so a walk
# past the newest snapshot fetched every older one too). A version the
# checkpoint did not store a value for has a sealed "empty" blob, which is
# told apart by its length (``empty_len``) without opening it; the caller
# opens what the page holds and decides. A seed the decoded cache holds
# (named in ``known``, as reads name them) comes back as its header only: a
# long chat's snapshot is read once, not on every turn until the next one.
DELTA_PAGE = 1024


def _delta_blob(n: int, c: str, what: str, extra: str = "") -> str:
    """Channel ``n``'s blob at ``c``'s version: both key columns are given as
    values, so every plan looks the row up by its whole key (a join on
    ``b.version = versions ->> b.channel`` scanned the thread's every blob
    once per ancestor until the table had statistics: 200 ms for a
    1,000-message thread)."""
    return (
        f"SELECT {what} FROM trustmem_blobs b WHERE b.thread_key = %(tk)s AND b.checkpoint_ns = %(ns)s "
        f"AND b.channel = %(ch{n})s AND b.version = {c}.versions ->> %(ch{n})s{extra}"
    )


@functools.cache
def delta_chain_sql(channels: int) -> str:
    """The page query for ``channels`` channels (named ``ch0``, ``ch1``...)."""

    def seeds(c: str) -> str:
        found = " UNION ALL ".join(
            _delta_blob(n, c, "1", " AND length(b.blob) > %(empty_len)s") for n in range(channels)
        )
        return f"(SELECT count(*) FROM ({found}) AS seeds)"

    blob = f"array[convert_to(b.channel, 'UTF8'), convert_to(b.version, 'UTF8'), {_BLOB_UNLESS_KNOWN}]"
    blobs = " UNION ALL ".join(_delta_blob(n, "chain", blob) for n in range(channels))
    return f"""
WITH RECURSIVE chain AS (
    SELECT c.checkpoint_id, c.parent_checkpoint_id, c.versions, 0 AS depth, {seeds("c")} AS seeds
    FROM trustmem_checkpoints c
    WHERE c.thread_key = %(tk)s AND c.checkpoint_ns = %(ns)s AND c.checkpoint_id = %(start)s
        AND c.branch = %(branch)s
  UNION ALL
    SELECT p.checkpoint_id, p.parent_checkpoint_id, p.versions, chain.depth + 1, {seeds("p")}
    FROM chain, LATERAL (
        -- the parent looked up by its key whatever the statistics say (LIMIT keeps
        -- the planner from joining the whole thread's checkpoints instead)
        SELECT p.checkpoint_id, p.parent_checkpoint_id, p.versions FROM trustmem_checkpoints p
        WHERE p.thread_key = %(tk)s AND p.checkpoint_ns = %(ns)s
            AND p.checkpoint_id = chain.parent_checkpoint_id AND p.branch = %(branch)s
        LIMIT 1
    ) AS p
    WHERE chain.depth < %(page)s AND chain.seeds < {channels}
)
SELECT chain.checkpoint_id, chain.parent_checkpoint_id,
    (SELECT array_agg(array[convert_to(w.task_id, 'UTF8'), convert_to(w.channel, 'UTF8'),
        convert_to(w.task_path, 'UTF8'), convert_to(w.idx::text, 'UTF8'), w.blob]
        ORDER BY w.task_path, w.task_id, w.idx)
     FROM trustmem_writes w WHERE w.thread_key = %(tk)s AND w.checkpoint_ns = %(ns)s
        AND w.checkpoint_id = chain.checkpoint_id AND w.channel = ANY(%(channels)s)) AS writes,
    ARRAY({blobs}) AS blobs
FROM chain ORDER BY chain.depth
"""
