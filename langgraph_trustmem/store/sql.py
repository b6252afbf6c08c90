"""Every SQL statement of the memory store, the audit log and erasure, and
their append-only migrations.

A memory row keeps only keyed hashes of its namespace and key (``ns_hash``,
``key_hash``, and ``ns_prefixes``: the hash of every leading part of the
namespace, for prefix scans), the hash of its tenant (the user the
namespace belongs to), its trust level rank, its schema version and its
timestamps. The namespace, key, value, label source and provenance are one
AES-GCM envelope.
"""

MIGRATIONS = [
    "CREATE TABLE IF NOT EXISTS trustmem_store_migrations (v INTEGER PRIMARY KEY)",
    """
    CREATE TABLE IF NOT EXISTS trustmem_memories (
        ns_hash        BYTEA NOT NULL,
        key_hash       BYTEA NOT NULL,
        ns_prefixes    BYTEA[] NOT NULL,
        depth          SMALLINT NOT NULL,
        tenant         BYTEA,
        level          SMALLINT NOT NULL,
        sealed         BYTEA NOT NULL,
        schema_version INTEGER NOT NULL,
        indexed        SMALLINT NOT NULL DEFAULT 0,
        created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
        expires_at     TIMESTAMPTZ,
        ttl_minutes    DOUBLE PRECISION,
        PRIMARY KEY (ns_hash, key_hash)
    )""",
    "CREATE INDEX IF NOT EXISTS trustmem_memories_prefix_idx ON trustmem_memories USING GIN (ns_prefixes)",
    "CREATE INDEX IF NOT EXISTS trustmem_memories_tenant_idx ON trustmem_memories (tenant)",
    "CREATE INDEX IF NOT EXISTS trustmem_memories_expiry_idx ON trustmem_memories (expires_at)",
    "CREATE INDEX IF NOT EXISTS trustmem_memories_version_idx ON trustmem_memories (schema_version)",
    """
    CREATE TABLE IF NOT EXISTS trustmem_audit (
        seq        BIGINT PRIMARY KEY,
        at         TIMESTAMPTZ NOT NULL DEFAULT now(),
        action     TEXT NOT NULL,
        actor      TEXT,
        session    BYTEA,
        tenant     BYTEA,
        item       BYTEA,
        level      SMALLINT,
        detail     TEXT,
        prev_hash  BYTEA NOT NULL,
        hash       BYTEA NOT NULL
    )""",
    # A per-user secret salt: audit events name a user's sessions and
    # memories through it, so deleting it at erasure unlinks them for good
    # while the hash chain stays intact.
    """
    CREATE TABLE IF NOT EXISTS trustmem_subjects (
        subject BYTEA PRIMARY KEY,
        salt    BYTEA NOT NULL
    )""",
    # One row per erasure: its subject (a keyed hash) is cleared when it
    # finishes, leaving a receipt that names no one.
    """
    CREATE TABLE IF NOT EXISTS trustmem_erasures (
        receipt_id  UUID PRIMARY KEY,
        subject     BYTEA UNIQUE,
        started_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        finished_at TIMESTAMPTZ,
        removed     JSONB NOT NULL DEFAULT '{}'
    )""",
    # The chain's head, MAC'd: cutting the newest events (or the anchor) is
    # detected by verify_audit().
    """
    CREATE TABLE IF NOT EXISTS trustmem_audit_anchor (
        id   SMALLINT PRIMARY KEY,
        seq  BIGINT NOT NULL,
        hash BYTEA NOT NULL,
        mac  BYTEA NOT NULL
    )""",
    # Blind indexes: a keyed tag (per tenant) of each scalar field value, so
    # equality filters run in SQL without the database seeing any value.
    # ``tainted`` mirrors the sealed integrity flag for SQL-side visibility
    # (the envelope stays the authority). Rows written before these columns
    # have ``blind`` NULL and are filtered in process until re-indexed.
    "ALTER TABLE trustmem_memories ADD COLUMN IF NOT EXISTS blind BYTEA[]",
    "ALTER TABLE trustmem_memories ADD COLUMN IF NOT EXISTS tainted BOOLEAN NOT NULL DEFAULT false",
    "CREATE INDEX IF NOT EXISTS trustmem_memories_blind_idx ON trustmem_memories USING GIN (blind)",
    # The audit journal: read events written by the read's own statement
    # (durable with it, no lock, no extra round trip), folded into the hash
    # chain in id order at the next append. Identifiers here are keyed
    # hashes; they become per-user pseudonyms when folded.
    """
    CREATE TABLE IF NOT EXISTS trustmem_audit_journal (
        id      BIGSERIAL PRIMARY KEY,
        at      TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        action  TEXT NOT NULL,
        actor   TEXT,
        session BYTEA,
        tenant  BYTEA,
        item    BYTEA,
        level   SMALLINT
    )""",
    "ALTER TABLE trustmem_audit_journal ADD COLUMN IF NOT EXISTS detail TEXT",
    """CREATE INDEX IF NOT EXISTS trustmem_memories_newest_idx
        ON trustmem_memories (tenant, updated_at DESC, ns_hash, key_hash)""",
    "DROP INDEX IF EXISTS trustmem_memories_tenant_idx",  # the index above leads with the tenant
    # Which embedder made the vectors: its output size and its vector of a
    # fixed public sentence (``plan.PROBE_TEXT``). A store set up with another
    # embedder re-embeds every memory from its sealed value first.
    """
    CREATE TABLE IF NOT EXISTS trustmem_vector_meta (
        id    SMALLINT PRIMARY KEY CHECK (id = 1),
        dims  INTEGER NOT NULL,
        probe REAL[] NOT NULL
    )""",
    # Whether the package's own model made them: a store on the packaged
    # model never replaces vectors another embedder made (a CLI command, say).
    "ALTER TABLE trustmem_vector_meta ADD COLUMN IF NOT EXISTS packaged BOOLEAN NOT NULL DEFAULT false",
    # Which durable tier held them (``VectorIndex.identity``): that tier found empty
    # later lost its data, and setup refills it.
    "ALTER TABLE trustmem_vector_meta ADD COLUMN IF NOT EXISTS tier TEXT",
]

SELECT_MIGRATION_SQL = "SELECT v FROM trustmem_store_migrations ORDER BY v DESC LIMIT 1"
INSERT_MIGRATION_SQL = "INSERT INTO trustmem_store_migrations (v) VALUES (%s) ON CONFLICT DO NOTHING"
MIGRATION_LOCK_SQL = "SELECT pg_advisory_xact_lock(7239114502)"

_LIVE = "(m.expires_at IS NULL OR m.expires_at > now())"

_COLUMNS = """m.ns_hash, m.key_hash, m.level, m.sealed, m.schema_version, m.created_at, m.updated_at,
    m.expires_at, m.ttl_minutes, m.tenant, m.indexed"""
# Inside a run, a reader sees shared memories (no tenant) and its own.
_CONFINED = "(NOT %(confined)s OR m.tenant IS NULL OR m.tenant = %(own)s)"
# Who may see a row: ``plan.Scope.admits`` in SQL (the scope's params).
_VISIBLE = f"""(m.level <= %(level)s AND NOT (%(integrity)s AND m.tainted AND m.level < %(level)s)
    AND {_CONFINED} AND {_LIVE})"""
_PREFIX = "(%(prefix)s::bytea IS NULL OR m.ns_prefixes @> ARRAY[%(prefix)s::bytea])"
# Rows whose SQL-side columns are current: blind tags of the stored
# version and the integrity mirror. Older rows are judged in process.
_CURRENT = "(m.blind IS NOT NULL AND m.schema_version >= %(version)s)"
# A filter's equality conditions as blind tags (per tenant); a row that is
# not current passes, for the process to judge.
_BLIND = f"""(%(own_tags)b::bytea[] IS NULL OR NOT {_CURRENT}
    OR (m.tenant IS NULL AND m.blind @> %(shared_tags)b::bytea[])
    OR (m.tenant IS NOT NULL AND m.blind @> %(own_tags)b::bytea[]))"""
# The read's audit events, written by the read's own statement.
_JOURNAL = """INSERT INTO trustmem_audit_journal (action, actor, session, tenant, item, level)
    SELECT %(action)s, %(actor)s, %(session)s, h.tenant, h.ns_hash || h.key_hash, h.level
    FROM hit h WHERE h.journaled"""
# A search page is journaled only if SQL could judge every row of it (the
# process decides, and audits, a page with an older row).
_WHOLE_PAGE = "NOT EXISTS (SELECT 1 FROM hit x WHERE NOT x.current)"

# Gets, whatever the level (the process audits a refusal); the visible,
# current ones are journaled as read by the same statement.
def _get_sql(source: str) -> str:
    return f"""
WITH hit AS (
    SELECT {_COLUMNS}, NULL::float8 AS score,
        (%(journal)s AND {_VISIBLE} AND {_CURRENT}) AS journaled, {_CURRENT} AS current
    FROM {source}
    JOIN trustmem_memories m ON m.ns_hash = u.ns_hash AND m.key_hash = u.key_hash
    WHERE {_LIVE}
), j AS ({_JOURNAL})
SELECT * FROM hit
"""


GET_SQL = _get_sql("unnest(%(ns_hashes)b::bytea[], %(key_hashes)b::bytea[]) AS u(ns_hash, key_hash)")
GET_ONE_SQL = _get_sql("(SELECT %(ns_hash)s::bytea AS ns_hash, %(key_hash)s::bytea AS key_hash) AS u")

# Vector candidates to results: one per memory (its best score), visible,
# blind-filtered, best first, paged; journaled when the page is complete
# (``final``: no more candidates exist, or the page is full).
HITS_SQL = f"""
WITH c AS (
    SELECT u.ns_hash, u.key_hash, max(u.score) AS score
    FROM unnest(%(ns_hashes)b::bytea[], %(key_hashes)b::bytea[], %(scores)b::float8[])
        AS u(ns_hash, key_hash, score)
    GROUP BY u.ns_hash, u.key_hash
), hit AS (
    SELECT {_COLUMNS}, c.score, (%(journal)s AND {_CURRENT}) AS journaled, {_CURRENT} AS current
    FROM c JOIN trustmem_memories m ON m.ns_hash = c.ns_hash AND m.key_hash = c.key_hash
    WHERE {_VISIBLE} AND {_PREFIX} AND {_BLIND}
    ORDER BY c.score DESC, m.ns_hash, m.key_hash
    LIMIT %(limit)s OFFSET %(offset)s
), j AS ({_JOURNAL} AND {_WHOLE_PAGE} AND (%(final)s OR (SELECT count(*) FROM hit) >= %(limit)s))
SELECT * FROM hit
"""

# Filter-only search: newest first, narrowed in SQL by prefix and tags.
_MATCHING = f"{_VISIBLE} AND {_PREFIX} AND {_BLIND}"
_NEWEST = "ORDER BY m.updated_at DESC, m.ns_hash, m.key_hash"


def _filter_sql(source: str) -> str:
    return f"""
WITH hit AS (
    SELECT {_COLUMNS}, NULL::float8 AS score, (%(journal)s AND {_CURRENT}) AS journaled, {_CURRENT} AS current
    FROM {source} m
    {_NEWEST}
    LIMIT %(limit)s OFFSET %(offset)s
), j AS ({_JOURNAL} AND {_WHOLE_PAGE} AND (%(final)s OR (SELECT count(*) FROM hit) >= %(limit)s))
SELECT * FROM hit
"""


FILTER_SQL = _filter_sql(f"(SELECT * FROM trustmem_memories m WHERE {_MATCHING})")


def _newest_of(tenant: str) -> str:
    """A tenant's newest ``window`` rows (all with NULL), read in order from
    the (tenant, updated_at) index, then matched."""
    return f"""(SELECT * FROM (SELECT * FROM trustmem_memories WHERE {tenant}
        ORDER BY updated_at DESC, ns_hash, key_hash LIMIT %(window)s) m
    WHERE {_MATCHING} {_NEWEST} LIMIT %(upto)s)"""


# A confined reader's rows are its own and the shared ones, each read newest
# first and cut at offset + limit: a page costs a window of index entries
# however many memories the user has. A page left short by the window is
# not journaled (``final`` false); the caller asks again without a window.
FILTER_CONFINED_SQL = _filter_sql(f"({_newest_of('tenant = %(own)s')} UNION ALL {_newest_of('tenant IS NULL')})")

# Used by writes: the row whatever its level, to apply overwrite rules.
GET_FOR_WRITE_SQL = """
SELECT level, sealed, schema_version, indexed FROM trustmem_memories
WHERE ns_hash = %(ns_hash)s AND key_hash = %(key_hash)s FOR UPDATE
"""

_INSERT_ROW = """
INSERT INTO trustmem_memories (ns_hash, key_hash, ns_prefixes, depth, tenant, level, sealed,
    schema_version, indexed, expires_at, ttl_minutes, blind, tainted)
VALUES (%(ns_hash)s, %(key_hash)s, %(ns_prefixes)b, %(depth)s, %(tenant)s, %(level)s, %(sealed)s,
    %(schema_version)s, %(indexed)s,
    CASE WHEN %(ttl)s::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => %(ttl)s * 60) END,
    %(ttl)s, %(blind)b, %(tainted)s)"""

UPSERT_SQL = _INSERT_ROW + """
ON CONFLICT (ns_hash, key_hash) DO UPDATE SET
    level = EXCLUDED.level, sealed = EXCLUDED.sealed, schema_version = EXCLUDED.schema_version,
    tenant = EXCLUDED.tenant, indexed = EXCLUDED.indexed, updated_at = now(),
    expires_at = EXCLUDED.expires_at, ttl_minutes = EXCLUDED.ttl_minutes,
    blind = EXCLUDED.blind, tainted = EXCLUDED.tainted
"""

DELETE_SQL = """
DELETE FROM trustmem_memories WHERE ns_hash = %(ns_hash)s AND key_hash = %(key_hash)s
RETURNING level, tenant, indexed
"""

LIST_NAMESPACES_SQL = f"""
SELECT DISTINCT ON (m.ns_hash) m.ns_hash, m.key_hash, m.sealed, m.level, m.tenant
FROM trustmem_memories m
WHERE m.level <= %(level)s AND {_LIVE} AND {_CONFINED}
    AND (%(prefix)s::bytea IS NULL OR m.ns_prefixes @> ARRAY[%(prefix)s::bytea])
ORDER BY m.ns_hash
"""

# Best effort, in key order, skipping rows another transaction holds (a
# write to them sets their expiry anyway): a refresh never deadlocks a put.
REFRESH_TTL_SQL = """
UPDATE trustmem_memories m SET expires_at = now() + make_interval(secs => m.ttl_minutes * 60)
FROM (SELECT ns_hash, key_hash FROM trustmem_memories
      WHERE ttl_minutes IS NOT NULL AND (ns_hash, key_hash) IN (
          SELECT * FROM unnest(%(ns_hashes)b::bytea[], %(key_hashes)b::bytea[]))
      ORDER BY ns_hash, key_hash FOR UPDATE SKIP LOCKED) s
WHERE m.ns_hash = s.ns_hash AND m.key_hash = s.key_hash
"""

SWEEP_EXPIRED_SQL = """
DELETE FROM trustmem_memories WHERE expires_at IS NOT NULL AND expires_at <= now()
RETURNING ns_hash, key_hash, tenant, indexed
"""

# Retention rules: memories at a level and/or under a namespace prefix that
# have not been updated for longer than the rule allows.
SWEEP_RETENTION_SQL = """
DELETE FROM trustmem_memories
WHERE (%(level)s::smallint IS NULL OR level = %(level)s)
  AND (%(prefix)s::bytea IS NULL OR ns_prefixes @> ARRAY[%(prefix)s::bytea])
  AND updated_at < now() - make_interval(secs => %(age)s)
RETURNING ns_hash, key_hash, tenant, indexed
"""

# Key rotation of the store's sealed rows and per-user audit salts.
ROTATE_MEMORIES_SQL = """
SELECT ns_hash, key_hash, sealed, level, tenant FROM trustmem_memories
WHERE substring(sealed from 5 for 4) = ANY(%s) LIMIT %s
"""
RESEAL_MEMORY_SQL = (
    "UPDATE trustmem_memories SET sealed = %s WHERE ns_hash = %s AND key_hash = %s AND sealed = %s"
)
ROTATE_SALTS_SQL = (
    "SELECT subject, salt FROM trustmem_subjects WHERE substring(salt from 5 for 4) = ANY(%s) LIMIT %s"
)
RESEAL_SALT_SQL = "UPDATE trustmem_subjects SET salt = %s WHERE subject = %s AND salt = %s"

# The embedder record, and the walk that re-embeds every indexed memory
# (keyset pages in key order; expired rows are left to the sweeper).
VECTOR_META_SQL = "SELECT dims, probe, packaged, tier FROM trustmem_vector_meta WHERE id = 1"
VECTOR_TIER_SET_SQL = "UPDATE trustmem_vector_meta SET tier = %(tier)s WHERE id = 1 AND tier IS DISTINCT FROM %(tier)s"
VECTOR_META_SET_SQL = """
INSERT INTO trustmem_vector_meta (id, dims, probe, packaged) VALUES (1, %(dims)s, %(probe)s, %(packaged)s)
ON CONFLICT (id) DO UPDATE SET dims = excluded.dims, probe = excluded.probe, packaged = excluded.packaged
"""
ANY_INDEXED_SQL = "SELECT EXISTS (SELECT 1 FROM trustmem_memories WHERE indexed > 0)"
COUNT_INDEXED_SQL = f"SELECT count(*) FROM trustmem_memories m WHERE m.indexed > 0 AND {_LIVE}"
REINDEX_PAGE_SQL = f"""
SELECT m.ns_hash, m.key_hash, m.sealed, m.schema_version, m.level, m.tenant, m.indexed FROM trustmem_memories m
WHERE m.indexed > 0 AND {_LIVE} AND (m.ns_hash, m.key_hash) > (%(after_ns)s, %(after_key)s)
ORDER BY m.ns_hash, m.key_hash LIMIT %(limit)s
"""
# The rows of a page as they are now: a write or delete since the page was
# read is re-embedded (or its vectors dropped) after the page's upsert.
REINDEX_RECHECK_SQL = f"""
SELECT u.ns_hash, u.key_hash, m.sealed, m.schema_version, m.level, m.tenant, m.indexed
FROM unnest(%(ns_hashes)b::bytea[], %(key_hashes)b::bytea[]) AS u(ns_hash, key_hash)
LEFT JOIN trustmem_memories m ON m.ns_hash = u.ns_hash AND m.key_hash = u.key_hash AND {_LIVE}
"""

# One tenant's live indexed rows (after its shard was removed, see below).
TENANT_INDEXED_SQL = f"""
SELECT m.ns_hash, m.key_hash, m.sealed, m.schema_version, m.level, m.tenant, m.indexed FROM trustmem_memories m
WHERE m.tenant = %(tenant)s AND m.indexed > 0 AND {_LIVE}
"""
# Tenants with no memory left (erased while a re-embedding pass ran): their
# vector shards go whole, so nothing the pass wrote outlives the erasure.
TENANTS_WITHOUT_ROWS_SQL = """
SELECT u.t FROM unnest(%(tenants)b::bytea[]) AS u(t)
WHERE NOT EXISTS (SELECT 1 FROM trustmem_memories m WHERE m.tenant = u.t)
"""

# Lazy migration: rewrite one row (value, tags, integrity mirror) when its
# schema version is older or it predates the SQL-side columns; compare and
# set on both, so a concurrent write is never overwritten.
REWRITE_SQL = """
UPDATE trustmem_memories SET sealed = %(sealed)s, schema_version = %(schema_version)s,
    blind = %(blind)b, tainted = %(tainted)s
WHERE ns_hash = %(ns_hash)s AND key_hash = %(key_hash)s AND schema_version = %(old_version)s
    AND (%(old_sealed)s::bytea IS NULL OR sealed = %(old_sealed)s)
"""
_OUTDATED = "(schema_version < %(version)s OR blind IS NULL)"
OUTDATED_SQL = f"""
SELECT ns_hash, key_hash, sealed, schema_version, level, tenant FROM trustmem_memories
WHERE {_OUTDATED} ORDER BY ns_hash, key_hash LIMIT %(limit)s
"""
COUNT_OUTDATED_SQL = f"SELECT count(*) FROM trustmem_memories WHERE {_OUTDATED}"

# Erasure.
DELETE_TENANT_SQL = "DELETE FROM trustmem_memories WHERE tenant = %s RETURNING ns_hash, key_hash"
# Start (or resume) the erasure of a subject: the steps done so far come back.
ERASURE_START_SQL = """
INSERT INTO trustmem_erasures (receipt_id, subject) VALUES (%s, %s)
ON CONFLICT (subject) DO UPDATE SET subject = EXCLUDED.subject
RETURNING receipt_id, started_at, removed
"""
ERASURE_STEP_SQL = """
UPDATE trustmem_erasures SET removed = removed || jsonb_build_object(%s::text, %s::int)
WHERE receipt_id = %s
"""
ERASURE_FINISH_SQL = """
UPDATE trustmem_erasures SET finished_at = now(), subject = NULL WHERE receipt_id = %s
RETURNING receipt_id, started_at, finished_at, removed
"""
ERASURE_STATUS_SQL = (
    "SELECT receipt_id, started_at, finished_at, removed FROM trustmem_erasures WHERE receipt_id = %s"
)

SUBJECT_SALT_INSERT_SQL = (
    "INSERT INTO trustmem_subjects (subject, salt) VALUES (%s, %s) ON CONFLICT DO NOTHING"
)
SUBJECT_SALT_SQL = "SELECT salt FROM trustmem_subjects WHERE subject = %s"
SUBJECT_DELETE_SQL = "DELETE FROM trustmem_subjects WHERE subject = %s"

# Audit: one chain, appended under an advisory lock so links never fork.
# A holder that stops talking mid-transaction (its task abandoned when its
# event loop closed, a frozen process whose socket stays open) would hold
# the lock, and every write's audit append, for good: the server ends such
# a session after 10 s idle in the transaction, and the lock goes with it.
AUDIT_LOCK_SQL = (
    "SELECT set_config('idle_in_transaction_session_timeout', '10s', true), pg_advisory_xact_lock(7239114503)"
)
AUDIT_HEAD_SQL = "SELECT seq, hash FROM trustmem_audit ORDER BY seq DESC LIMIT 1"
AUDIT_INSERT_MANY_SQL = """
INSERT INTO trustmem_audit (seq, at, action, actor, session, tenant, item, level, detail, prev_hash, hash)
SELECT * FROM unnest(%(seq)b::bigint[], %(at)b::timestamptz[], %(action)b::text[], %(actor)b::text[],
    %(session)b::bytea[], %(tenant)b::bytea[], %(item)b::bytea[], %(level)b::smallint[], %(detail)b::text[],
    %(prev)b::bytea[], %(hash)b::bytea[])
"""
AUDIT_ANCHOR_SQL = """
INSERT INTO trustmem_audit_anchor (id, seq, hash, mac) VALUES (1, %(seq)s, %(hash)s, %(mac)s)
ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, mac = EXCLUDED.mac
"""
# Folding the journal: taken oldest first under the chain's lock.
JOURNAL_TAKE_SQL = """
DELETE FROM trustmem_audit_journal WHERE id IN (
    SELECT id FROM trustmem_audit_journal ORDER BY id LIMIT %s)
RETURNING id, at, action, actor, session, tenant, item, level, detail
"""
JOURNAL_INSERT_SQL = """
INSERT INTO trustmem_audit_journal (at, action, actor, session, tenant, item, level, detail)
SELECT * FROM unnest(%b::timestamptz[], %b::text[], %b::text[], %b::bytea[], %b::bytea[], %b::bytea[],
    %b::smallint[], %b::text[])
"""

# A put of a key that is not there yet, with its audit events, in one
# statement (autocommit): no row means no overwrite rule to check, so the
# row lock and the transaction's round trips are not needed. Returns one
# row if it wrote; none if the key exists, and the caller takes the locked
# path (nothing was written, no event journaled).
FIRST_PUT_SQL = f"""
WITH ins AS ({_INSERT_ROW}
    ON CONFLICT (ns_hash, key_hash) DO NOTHING RETURNING 1
), journaled AS (
    INSERT INTO trustmem_audit_journal (at, action, actor, session, tenant, item, level, detail)
    SELECT e.* FROM unnest(%(e_at)b::timestamptz[], %(e_action)b::text[], %(e_actor)b::text[],
        %(e_session)b::bytea[], %(e_tenant)b::bytea[], %(e_item)b::bytea[], %(e_level)b::smallint[],
        %(e_detail)b::text[]) e, ins
)
SELECT 1 FROM ins
"""
AUDIT_ANCHOR_READ_SQL = "SELECT seq, hash, mac FROM trustmem_audit_anchor WHERE id = 1"
AUDIT_TRAIL_SQL = """
SELECT seq, at, action, actor, level, detail FROM trustmem_audit WHERE item = %s ORDER BY seq LIMIT %s
"""
AUDIT_TAIL_SQL = "SELECT seq, at, action, actor, level, detail FROM trustmem_audit ORDER BY seq DESC LIMIT %s"
AUDIT_SCAN_SQL = """
SELECT seq, at, action, actor, session, tenant, item, level, detail, prev_hash, hash
FROM trustmem_audit WHERE seq > %s ORDER BY seq LIMIT %s
"""

# The header of one sealed envelope: which key sealed this database's rows
# (checked when a key check value is first recorded).
SEALED_SAMPLE_SQL = "SELECT substring(sealed from 1 for 20) FROM trustmem_memories LIMIT 1"
