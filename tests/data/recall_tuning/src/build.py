"""Assemble memories.jsonl / queries.jsonl from the hand-written src/part*.txt files
and validate the result. The sentences themselves are all in the part files."""
import glob
import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
STYLES = {"L": "lexical", "P": "paraphrase", "I": "indirect", "D": "distractor"}


def parse():
    users = {}
    order = []
    cur = None
    for path in sorted(glob.glob(os.path.join(HERE, "part*.txt"))):
        with open(path, encoding="utf-8") as fh:
            for ln, raw in enumerate(fh, 1):
                line = raw.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                where = f"{os.path.basename(path)}:{ln}"
                if line.startswith("@"):
                    cur = line[1:].strip()
                    assert cur not in users, f"duplicate user {cur} at {where}"
                    users[cur] = {"m": [], "q": []}
                    order.append(cur)
                elif line.startswith("m "):
                    users[cur]["m"].append(line[2:].strip())
                elif line.startswith("q "):
                    head, text = line[2:].split("|", 1)
                    style, idx = head.split()
                    rel = [int(x) for x in idx.split(",")]
                    users[cur]["q"].append((STYLES[style], rel, text.strip(), where))
                else:
                    raise ValueError(f"bad line at {where}: {line!r}")
    return users, order


def main():
    users, order = parse()
    memories, queries = [], []
    mnum = qnum = 0
    for u in order:
        local = {}
        for i, text in enumerate(users[u]["m"], 1):
            mnum += 1
            mid = f"m{mnum:04d}"
            local[i] = mid
            memories.append({"id": mid, "user": u, "text": text})
        for style, rel, text, where in users[u]["q"]:
            qnum += 1
            for r in rel:
                assert r in local, f"{where}: memory index {r} out of range for {u}"
            queries.append({"id": f"q{qnum:04d}", "user": u, "text": text,
                            "relevant": [local[r] for r in rel], "style": style})

    # ---- validation ----
    problems = []
    mids = [m["id"] for m in memories]
    qids = [q["id"] for q in queries]
    if len(set(mids)) != len(mids):
        problems.append("duplicate memory ids")
    if len(set(qids)) != len(qids):
        problems.append("duplicate query ids")
    mem_user = {m["id"]: m["user"] for m in memories}
    targeted = Counter()
    for q in queries:
        if not q["relevant"]:
            problems.append(f"{q['id']} has no relevant ids")
        if len(set(q["relevant"])) != len(q["relevant"]):
            problems.append(f"{q['id']} repeats a relevant id")
        for r in q["relevant"]:
            if r not in mem_user:
                problems.append(f"{q['id']} -> unknown {r}")
            elif mem_user[r] != q["user"]:
                problems.append(f"{q['id']} -> {r} belongs to another user")
            targeted[r] += 1
    for m in memories:
        if targeted[m["id"]] == 0:
            problems.append(f"{m['id']} ({m['user']}) never targeted: {m['text']}")
        n = len(m["text"].split())
        if not 5 <= n <= 30:
            problems.append(f"{m['id']} has {n} words")
    per_user_m = Counter(m["user"] for m in memories)
    per_user_q = Counter(q["user"] for q in queries)
    for u in order:
        if per_user_m[u] != 20:
            problems.append(f"{u}: {per_user_m[u]} memories")
        if per_user_q[u] != 30:
            problems.append(f"{u}: {per_user_q[u]} queries")
    mtexts = Counter(m["text"].lower() for m in memories)
    qtexts = Counter(q["text"].lower() for q in queries)
    problems += [f"duplicate memory text: {t}" for t, c in mtexts.items() if c > 1]
    problems += [f"duplicate query text: {t}" for t, c in qtexts.items() if c > 1]
    for q in queries:
        n = len(q["text"].split())
        if not 3 <= n <= 25:
            problems.append(f"{q['id']} has {n} words: {q['text']}")

    styles = Counter(q["style"] for q in queries)
    print(f"users: {len(order)}  memories: {len(memories)}  queries: {len(queries)}")
    for s in STYLES.values():
        print(f"  {s:11s} {styles[s]:4d}  {100 * styles[s] / max(1, len(queries)):5.1f}%")
    multi = sum(1 for q in queries if len(q["relevant"]) > 1)
    print(f"  queries with 2 relevant: {multi}")
    for u in order:
        c = Counter(q["style"] for q in queries if q["user"] == u)
        print(f"  {u}: m={per_user_m[u]} q={per_user_q[u]} "
              + " ".join(f"{k[0]}={c[k]}" for k in STYLES.values()))
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print("  -", p)
    if "--write" in sys.argv:
        with open(os.path.join(OUT, "memories.jsonl"), "w", encoding="utf-8") as fh:
            for m in memories:
                fh.write(json.dumps(m, ensure_ascii=False) + "\n")
        with open(os.path.join(OUT, "queries.jsonl"), "w", encoding="utf-8") as fh:
            for q in queries:
                fh.write(json.dumps(q, ensure_ascii=False) + "\n")
        print("written")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
