"""Assemble hand-written src/part*.txt into memories.jsonl / queries.jsonl and validate."""
import json, re, sys, glob, os
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
STYLE = {"L": "lexical", "P": "paraphrase", "I": "indirect", "D": "distractor"}

mems, queries = [], []
user = None
local = {}
for path in sorted(glob.glob(os.path.join(HERE, "part*.txt"))):
    for ln, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        if line.startswith("## "):
            user = line[3:].strip()
            continue
        m = re.match(r"^M(\d+): (.+)$", line)
        if m:
            k = int(m.group(1)); u = int(user[1:])
            mid = f"m{(u-1)*20+k:04d}"
            mems.append({"id": mid, "user": user, "text": m.group(2).strip()})
            continue
        q = re.match(r"^Q: ([\d,]+) \| ([LPID]) \| (.+)$", line)
        if q:
            u = int(user[1:])
            rel = [f"m{(u-1)*20+int(x):04d}" for x in q.group(1).split(",")]
            queries.append({"user": user, "text": q.group(3).strip(), "relevant": rel, "style": STYLE[q.group(2)]})
            continue
        sys.exit(f"bad line {path}:{ln}: {line}")

for i, q in enumerate(queries, 1):
    q["id"] = f"q{i:04d}"
    queries[i-1] = {"id": q["id"], "user": q["user"], "text": q["text"], "relevant": q["relevant"], "style": q["style"]}

# validation
errs = []
mid_user = {m["id"]: m["user"] for m in mems}
if len(mid_user) != len(mems): errs.append("duplicate memory ids")
if len({q["id"] for q in queries}) != len(queries): errs.append("duplicate query ids")
if len({m["text"] for m in mems}) != len(mems): errs.append("duplicate memory texts")
dq = [t for t, c in Counter(q["text"].lower() for q in queries).items() if c > 1]
if dq: errs.append(f"duplicate query texts: {dq}")
per_user_m = Counter(m["user"] for m in mems)
per_user_q = Counter(q["user"] for q in queries)
targeted = Counter()
for q in queries:
    for r in q["relevant"]:
        if r not in mid_user: errs.append(f"{q['id']} relevant {r} missing")
        elif mid_user[r] != q["user"]: errs.append(f"{q['id']} relevant {r} other user")
        targeted[r] += 1
untargeted = [m for m in mid_user if targeted[m] == 0]
if untargeted: errs.append(f"untargeted: {untargeted}")
for m in mems:
    n = len(m["text"].split())
    if not (5 <= n <= 30): errs.append(f"{m['id']} length {n}: {m['text']}")
for q in queries:
    n = len(q["text"].split())
    if not (3 <= n <= 25): errs.append(f"{q['id']} length {n}: {q['text']}")
for u in sorted(set(per_user_m) | set(per_user_q)):
    su = Counter(q["style"][0].upper() for q in queries if q["user"] == u)
    flag = "" if (per_user_m[u] == 20 and per_user_q[u] == 30) else "  <-- count"
    print(f"{u}: mems={per_user_m[u]} queries={per_user_q[u]} styles={dict(su)}{flag}")
st = Counter(q["style"] for q in queries)
print("memories", len(mems), "users", len(per_user_m), "queries", len(queries))
print({k: f"{v} ({100*v/len(queries):.1f}%)" for k, v in st.most_common()})
print("multi-relevant queries:", sum(len(q["relevant"]) > 1 for q in queries))
if "--check" in sys.argv:
    if len(mems) != 400: errs.append("need 400 memories")
    if len(queries) != 600: errs.append("need 600 queries")
    if len(per_user_m) != 20: errs.append("need 20 users")
for e in errs: print("ERROR:", e)
if "--write" in sys.argv and not errs:
    with open(os.path.join(OUT, "memories.jsonl"), "w", encoding="utf-8") as f:
        for m in mems: f.write(json.dumps(m, ensure_ascii=False) + "\n")
    with open(os.path.join(OUT, "queries.jsonl"), "w", encoding="utf-8") as f:
        for q in queries: f.write(json.dumps(q, ensure_ascii=False) + "\n")
    print("written")
sys.exit(1 if errs else 0)
