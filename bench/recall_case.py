"""Case 7: what recalled memories cost in model tokens over a 50-turn
session, and whether the model still gets the memories each turn needs.

A user holds the memories below in our store (embedded engine, the packaged
offline embedder, so similarity is real). A scripted 50-turn session runs
through a real graph, ``START -> recall -> model``, on our checkpointer and
store, once per policy:

- **per-turn block** (ours): the package's ``make_recall_node`` with its
  defaults: one system message holding only the current turn's relevant
  memories, rewritten in place when they change;
- **inject once**: the previous release's node: every memory recalled (top
  5) joins one system message that stays in the history, so it is re-sent
  on every later call;
- **re-inject every turn**: a naive node appending the top 5 as new
  messages every turn;
- **system prompt every call**: no recall node; the model node puts the top
  5 in a system message of each call, not kept.

All render a memory as the package does (``Memory: <text>``) with its label.
The model node counts, with the packaged WordPiece tokenizer, the tokens of
the memory messages in what it receives each turn (the whole history and
any per-call prompt): summed over the session, the memory tokens *sent to
the model*. **Answer support**: every script turn is annotated with the
memories a correct answer needs (from the texts, before anything was tuned);
per turn, the fraction of those present in the model's input, averaged
over the turns that need any.

Three scripts: a focused session (one trip to plan), a broad one (eight
topics), on which the node's defaults were tuned, and a held-out one
(``recall_heldout.json``, committed before any tuning) that checks them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from bench.common import Env, Results, Target, ms_since, now
from bench.profiles import Profile

# (key, topic, text): the key names the memory in the scripts' annotations.
MEMORIES = [
    ("aisle-seat", "travel", "Prefers an aisle seat on flights and always checks in a small suitcase."),
    ("lisbon-airport", "travel", "Usually flies out of Lisbon airport; avoids early morning departures before 8 am."),
    ("quiet-room", "travel", "Likes quiet hotel rooms on a high floor with a view, away from the lift."),
    ("rail-pass", "travel", "Has a rail pass and prefers the train for trips under four hours."),
    ("dolomites", "travel", "Is planning a hiking holiday in the Dolomites next September with a friend."),
    ("seasick", "travel", "Gets motion sickness on ferries and small boats."),
    ("penicillin", "health", "Is allergic to penicillin; reacts with a rash."),
    ("bp-tablet", "health", "Takes a blood pressure tablet every morning with breakfast."),
    ("dentist", "health", "Has a dentist check-up every six months, next one in March."),
    ("running", "health", "Runs three times a week and is training for a 10 km race."),
    ("knee", "health", "Had knee surgery two years ago and avoids steep downhill running."),
    ("vegetarian", "food", "Is vegetarian but eats fish occasionally when travelling."),
    ("no-spicy", "food", "Dislikes coriander and very spicy food."),
    ("custard-espresso", "food", "Loves Portuguese custard tarts and strong espresso."),
    ("less-sugar", "food", "Is trying to cut down on sugar during the week."),
    ("sunday-soup", "food", "Cooks a big vegetable soup every Sunday for the week."),
    ("project-manager", "work", "Works as a project manager at an engineering firm."),
    ("monday-meeting", "work", "Has a weekly team meeting on Monday at 10 am."),
    ("budget-report", "work", "Is preparing the quarterly budget report due at the end of the month."),
    ("short-summaries", "work", "Prefers short written summaries over long calls."),
    ("manager-ana", "work", "Manager is called Ana; the client contract renews in June."),
    ("kids-football", "family", "Has two children, aged 7 and 10, who play football on Saturdays."),
    ("sister-porto", "family", "Sister lives in Porto and visits once a month."),
    ("anniversary", "family", "Parents' wedding anniversary is on the 12th of May."),
    ("dog-nico", "family", "The family dog is a border collie called Nico."),
    ("piano", "hobbies", "Plays the piano and takes lessons on Thursday evenings."),
    ("crime-novels", "hobbies", "Reads crime novels; recently finished a book by a Scandinavian author."),
    ("jazz", "hobbies", "Enjoys jazz concerts and has a season ticket to the local jazz club."),
    ("balcony-garden", "hobbies", "Grows tomatoes and herbs on the balcony."),
    ("italian", "hobbies", "Is learning Italian with an app, about 15 minutes a day."),
    ("no-lift", "home", "Lives in a flat on the fourth floor without a lift."),
    ("boiler", "home", "The boiler was serviced last autumn; the landlord handles repairs."),
    ("email-reminders", "home", "Prefers reminders by email rather than text messages."),
    ("education-savings", "money", "Saves a fixed amount every month for the children's education."),
    ("holiday-budget", "money", "Wants to keep the holiday budget under 2,000 euros."),
    ("rent", "money", "Pays the rent on the first day of each month."),
]

# Each turn with the memories a correct answer needs (annotated from the
# texts alone, before any threshold was tuned). A broad session: eight
# topics in 50 turns (most of the user's memories become relevant).
BROAD: list[tuple[str, tuple[str, ...]]] = [
    ("Can you help me plan a trip to Rome next month?", ("lisbon-airport", "holiday-budget")),
    ("What seat should I book on the flight?", ("aisle-seat",)),
    ("Find me a hotel near the centre.", ("quiet-room",)),
    ("Should I take the train from the airport?", ("rail-pass",)),
    ("What restaurants would suit me there?", ("vegetarian", "no-spicy")),
    ("I want to try some local food but nothing too spicy.", ("no-spicy", "vegetarian")),
    ("Remind me what I need to pack.", ("aisle-seat", "bp-tablet")),
    ("Can I fit the trip into my holiday budget?", ("holiday-budget",)),
    ("Let's go back to work: what's on my calendar Monday?", ("monday-meeting",)),
    ("Draft a summary of the budget report for my manager.", ("budget-report", "manager-ana", "short-summaries")),
    ("When is the client contract up for renewal?", ("manager-ana",)),
    ("I need to prepare for the team meeting.", ("monday-meeting",)),
    ("Write a short update email for Ana.", ("manager-ana", "short-summaries")),
    ("What should I cook for dinner tonight?", ("vegetarian", "no-spicy")),
    ("Suggest a healthy breakfast.", ("less-sugar", "vegetarian")),
    ("I feel like something sweet, any ideas?", ("less-sugar", "custard-espresso")),
    ("Plan my meals for the week.", ("vegetarian", "sunday-soup", "less-sugar", "no-spicy")),
    ("How should I train this week for my race?", ("running", "knee")),
    ("My knee hurts a bit after running downhill, what should I do?", ("knee", "running")),
    ("Is there anything I should tell the doctor about medicines?", ("penicillin", "bp-tablet")),
    ("Remind me about my dentist appointment.", ("dentist",)),
    ("What gift could I get for my parents' anniversary?", ("anniversary",)),
    ("My sister is visiting, what could we do together?", ("sister-porto",)),
    ("The kids have football on Saturday, plan the morning.", ("kids-football",)),
    ("Who will look after the dog while we travel to Rome?", ("dog-nico",)),
    ("Find a jazz concert in Rome during my trip.", ("jazz",)),
    ("Any Italian phrases I should practise before the trip?", ("italian",)),
    ("Recommend a crime novel for the flight.", ("crime-novels",)),
    ("What should I do with my tomato plants while I'm away?", ("balcony-garden",)),
    ("When is my piano lesson this week?", ("piano",)),
    ("Book the train tickets for the Dolomites trip.", ("dolomites", "rail-pass")),
    ("What hiking gear do I need for September?", ("dolomites", "knee")),
    ("Can we take a boat trip on Lake Garda on the way?", ("seasick", "dolomites")),
    ("How much should I save this month?", ("education-savings",)),
    ("When do I need to pay the rent?", ("rent",)),
    ("Set up reminders for my bills.", ("email-reminders", "rent")),
    ("The boiler is making a noise, who should I call?", ("boiler",)),
    ("Is there a lift in my building for moving furniture?", ("no-lift",)),
    ("Remind me of my flight preferences for the Rome booking.", ("aisle-seat", "lisbon-airport")),
    ("Let's finalise the Rome hotel booking.", ("quiet-room",)),
    ("What time is my flight, and is it too early?", ("lisbon-airport",)),
    ("Plan the first evening in Rome with dinner and music.", ("vegetarian", "jazz")),
    ("What vegetarian dishes are typical in Rome?", ("vegetarian",)),
    ("I'd like a coffee and a pastry near the hotel in the morning.", ("custard-espresso",)),
    ("Prepare my out-of-office message for work.", ("manager-ana",)),
    ("Tell my manager I'm on holiday next week.", ("manager-ana",)),
    ("Pack my medicines for the trip.", ("bp-tablet",)),
    ("Check the weather for running in Rome.", ("running",)),
    ("Summarise the whole trip plan for me.", ("short-summaries",)),
    ("Thanks, that's everything for today.", ()),
]

# A focused session: 50 turns on one task (planning a trip to Rome).
FOCUSED: list[tuple[str, tuple[str, ...]]] = [
    ("Can you help me plan a trip to Rome next month?", ("lisbon-airport", "holiday-budget")),
    ("Which dates would work best for a long weekend?", ("monday-meeting",)),
    ("What seat should I book on the flight?", ("aisle-seat",)),
    ("Are there flights later in the morning?", ("lisbon-airport",)),
    ("How much luggage should I take?", ("aisle-seat",)),
    ("Find me a hotel near the centre.", ("quiet-room",)),
    ("I'd prefer somewhere quiet, can you check the rooms?", ("quiet-room",)),
    ("Does the hotel have breakfast included?", ()),
    ("Should I take the train from the airport?", ("rail-pass",)),
    ("How long is the train ride into the city?", ()),
    ("What restaurants would suit me there?", ("vegetarian", "no-spicy")),
    ("I want to try some local food but nothing too spicy.", ("no-spicy", "vegetarian")),
    ("What vegetarian dishes are typical in Rome?", ("vegetarian",)),
    ("Is fish common on Roman menus?", ("vegetarian",)),
    ("Where can I get a good espresso near the hotel?", ("custard-espresso",)),
    ("Can I fit the trip into my holiday budget?", ("holiday-budget",)),
    ("How much should I plan for food each day?", ("holiday-budget",)),
    ("Are museum tickets expensive?", ()),
    ("Which museums should I book in advance?", ()),
    ("Plan the first day of sightseeing.", ()),
    ("Plan the second day with a bit less walking.", ()),
    ("Is there a park where I could go for a run?", ("running",)),
    ("How far is a 10 km route from the hotel?", ("knee",)),
    ("Find a jazz concert in Rome during my trip.", ("jazz",)),
    ("Book two tickets for the concert.", ()),
    ("What should I wear for the evening?", ()),
    ("Any Italian phrases I should practise before the trip?", ("italian",)),
    ("How do I ask for a vegetarian menu in Italian?", ("vegetarian",)),
    ("Recommend a novel to read on the flight.", ("crime-novels",)),
    ("Is a day trip to the coast worth it?", ()),
    ("How would I get to the coast by train?", ("rail-pass",)),
    ("Is a boat trip along the coast a good idea?", ("seasick",)),
    ("What is the weather usually like then?", ()),
    ("Should I pack an umbrella?", ()),
    ("Remind me what I need to pack.", ("aisle-seat", "bp-tablet")),
    ("Pack my medicines for the trip.", ("bp-tablet",)),
    ("Do I need travel insurance?", ()),
    ("Which card should I use abroad?", ()),
    ("Let's finalise the Rome hotel booking.", ("quiet-room",)),
    ("Remind me of my flight preferences for the Rome booking.", ("aisle-seat", "lisbon-airport")),
    ("Confirm the train tickets from the airport.", ("rail-pass",)),
    ("Make a reservation for dinner on the first evening.", ("vegetarian", "no-spicy")),
    ("Pick a restaurant for the last evening with a view.", ("vegetarian", "no-spicy")),
    ("What souvenirs could I bring back for the family?", ("kids-football",)),
    ("Plan the trip back to the airport.", ("rail-pass",)),
    ("What time should I leave the hotel on the last day?", ()),
    ("Put the whole itinerary in one list.", ()),
    ("Send me the itinerary by email.", ()),
    ("Is there anything I forgot?", ("dog-nico", "balcony-garden")),
    ("Thanks, that's everything for the trip.", ()),
]

HELDOUT_FILE = Path(__file__).resolve().parent / "recall_heldout.json"


def heldout_script() -> list[tuple[str, tuple[str, ...]]]:
    """The held-out script (frozen before tuning; never tuned on)."""
    turns = json.loads(HELDOUT_FILE.read_text())["turns"]
    return [(t["text"], tuple(t["needs"])) for t in turns]


def scripts() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """The scripts by name: the node's defaults were tuned on the first two."""
    return {
        "focused session": FOCUSED,
        "broad session": BROAD,
        "held-out session (not tuned on)": heldout_script(),
    }


def _tokenizer():
    from tokenizers import Tokenizer

    from langgraph_trustmem.store.embeddings import packaged_model_dir

    tok = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def _graph(saver: Any, store: Any, recall: Any, seen: list, per_call: Any = None) -> Any:
    """``START -> recall -> model`` (no recall node when ``recall`` is None);
    the model node records its input: ``per_call(state, config)``'s
    messages, not kept, then the history."""
    from langgraph_trustmem import label

    def model(state: MessagesState, config: RunnableConfig) -> dict:
        prompt = per_call(state, config) if per_call is not None else []
        seen.append([*prompt, *state["messages"]])
        return {"messages": [label(AIMessage("Noted."), "personal", source="model")]}

    b = StateGraph(MessagesState)
    b.add_node("model", model)
    if recall is not None:
        b.add_node("recall", recall)
        b.add_edge(START, "recall")
        b.add_edge("recall", "model")
    else:
        b.add_edge(START, "model")
    return b.compile(checkpointer=saver, store=store)


def _top(store: Any, state: MessagesState, config: RunnableConfig, limit: int) -> list:
    from langgraph_trustmem.nodes.recall import latest_user_text

    query = latest_user_text(state["messages"])
    return store.search(("memories", config["configurable"]["user_id"]), query=query, limit=limit)


def naive_recall(store: Any, limit: int = 5) -> Any:
    """Recall without de-duplication: the top ``limit`` memories appended
    every turn (the package's message text and labels)."""
    import uuid

    from langgraph_trustmem import label
    from langgraph_trustmem.nodes.recall import MEMORY_SOURCE, memory_text

    def recall(state: MessagesState, config: RunnableConfig) -> dict:
        out = []
        for item in _top(store, state, config, limit):
            msg = SystemMessage(f"Memory: {memory_text(item.value)}", id=str(uuid.uuid4()))
            out.append(label(msg, item.label.level, source=MEMORY_SOURCE))
        return {"messages": out}

    return recall


def inject_once_recall(store: Any, limit: int = 5) -> Any:
    """The previous release's recall: the top ``limit`` memories join one
    system message kept in the history (a memory enters once, again only
    when it changed), so each is re-sent on every later call."""
    from langgraph_trustmem.nodes.recall import (
        MEMORY_BLOCK_ID,
        arrange,
        block_entries,
        memory_block,
        memory_id,
        memory_text,
    )

    def recall(state: MessagesState, config: RunnableConfig) -> dict:
        messages = state["messages"]
        entries = block_entries(messages)
        held = {e["id"]: e["version"] for e in entries}
        changed = False
        for item in _top(store, state, config, limit):
            mid, version = memory_id(item.namespace, item.key), item.updated_at.isoformat()
            if held.get(mid) == version:
                continue
            entries = [e for e in entries if e["id"] != mid]
            entries.append({"id": mid, "version": version, "level": item.label.level,
                            "text": memory_text(item.value)})
            changed = True
        if not changed:
            return {}
        block = memory_block(entries)
        if any(getattr(m, "id", None) == MEMORY_BLOCK_ID for m in messages):
            return {"messages": [block]}
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *arrange(messages, block, [])]}

    return recall


def system_prompt_every_call(store: Any, limit: int = 5) -> Any:
    """The common policy: the top ``limit`` memories in a system message of
    each model call, never kept in the history."""
    from langgraph_trustmem.nodes.recall import memory_block, memory_id, memory_text

    def prompt(state: MessagesState, config: RunnableConfig) -> list:
        entries = [{"id": memory_id(i.namespace, i.key), "version": i.updated_at.isoformat(),
                    "level": i.label.level, "text": memory_text(i.value)}
                   for i in _top(store, state, config, limit)]
        return [memory_block(entries)] if entries else []

    return prompt


def _memory_messages(messages: list) -> list:
    from langgraph_trustmem import label_of

    return [m for m in messages if (lab := label_of(m)) is not None and lab.source == "memory"]


def support(needs: tuple[str, ...], sent: str, texts: dict[str, str]) -> float:
    """The fraction of the memories a turn needs whose text the model got."""
    return sum(texts[k] in sent for k in needs) / len(needs)


POLICIES = ("per-turn block", "system prompt every call", "inject once", "re-inject every turn")
OURS = POLICIES[0]


async def case_recall(env: Env, prof: Profile, res: Results) -> None:
    import uuid

    from langgraph_trustmem import TrustCheckpointSaver
    from langgraph_trustmem.nodes import make_recall_node
    from langgraph_trustmem.nodes.recall import memory_text
    from langgraph_trustmem.store import TrustStore
    from langgraph_trustmem.store.embeddings import default_embeddings

    case = "7. recall injection"
    emb = default_embeddings()
    tok = _tokenizer()
    cache: dict[str, int] = {}

    def ntok(text: str) -> int:
        if text not in cache:
            cache[text] = len(tok.encode(text, add_special_tokens=False).ids)
        return cache[text]

    user = "recall-user"
    index = {"dims": emb.dims, "embed": emb, "fields": ["text"]}
    with TrustStore.from_conn_string(
        env.db("recall_ours"), key=env.key, qdrant=str(env.path("recall-edge") / "shard"), index=index
    ) as store, TrustCheckpointSaver.from_conn_string(env.db("recall_ckpt"), key=env.key, local_hot=True) as saver:
        store.setup()
        saver.setup()
        writer = store.bound("personal")
        ns = ("memories", user)
        for key, topic, text in MEMORIES:
            writer.put(ns, key, {"text": text, "topic": topic})
        # the texts as stored (and as the model gets them)
        texts = {key: memory_text(writer.get(ns, key).value) for key, _, _ in MEMORIES}
        assert not any(a != b and texts[a] in texts[b] for a in texts for b in texts), "ambiguous texts"
        for scenario, script in scripts().items():
            unknown = {k for _, needs in script for k in needs} - set(texts)
            assert not unknown, f"{scenario}: unknown memory keys {sorted(unknown)}"
            turns = script[: prof.recall_turns]
            size = f"{scenario}, {len(turns)} turns"
            sent_by: dict[str, int] = {}
            support_by: dict[str, float] = {}
            extra: dict[str, dict[str, Any]] = {}
            for policy in POLICIES:
                recall: Any = None
                per_call: Any = None
                if policy == OURS:
                    recall = make_recall_node(store)
                elif policy == "inject once":
                    recall = inject_once_recall(store, 5)
                elif policy == "re-inject every turn":
                    recall = naive_recall(store, 5)
                else:
                    per_call = system_prompt_every_call(store, 5)
                seen: list[list] = []
                graph = _graph(saver, store, recall, seen, per_call)
                config = {"configurable": {"thread_id": f"recall-{uuid.uuid4().hex[:8]}", "user_id": user,
                                           "trust": "personal"}}
                tokens, supports, writes, distinct, latencies = 0, [], 0, set(), []
                for message, needs in turns:
                    t0 = now()
                    steps = list(graph.stream({"messages": [HumanMessage(message)]}, config, stream_mode="updates"))
                    latencies.append(ms_since(t0))
                    writes += any((step.get("recall") or {}).get("messages") for step in steps)
                    mem = _memory_messages(seen[-1])
                    body = "\n".join(str(m.content) for m in mem)
                    tokens += sum(ntok(str(m.content)) for m in mem)
                    distinct |= {k for k, t in texts.items() if t in body}
                    if needs:
                        supports.append(support(needs, body, texts))
                sent_by[policy] = tokens
                support_by[policy] = sum(supports) / len(supports) if supports else 1.0
                extra[policy] = {"distinct_memories_recalled": len(distinct), "recall_writes": writes,
                                 "turn_ms_median": round(sorted(latencies)[len(latencies) // 2], 2),
                                 "turns_needing_memories": len(supports)}
            sent, sup = "memory tokens sent to the model", "answer support"
            for policy in POLICIES:
                res.s(case, sent, size, policy, unit="tokens").samples.append(sent_by[policy])
                res.s(case, sent, size, policy, unit="tokens").extra.update(extra[policy])
                res.s(case, sup, size, policy, unit="support").samples.append(support_by[policy])
            best = min(POLICIES[1:], key=lambda p: sent_by[p])
            for policy in POLICIES[1:]:
                primary = policy == best
                res.compare(case, sent, size, OURS, policy, primary=primary, targets=[
                    Target("ratio_max", 0.8, text="<= 0.8x the best baseline's tokens")] if primary else [])
                res.compare(case, sup, size, OURS, policy, targets=[
                    Target("ratio_min", 1.0, text="support >= the best baseline's")] if primary else [])
            res.note(case, f"{scenario}: tokens "
                           + ", ".join(f"{p} {sent_by[p]:,}" for p in POLICIES)
                           + "; support " + ", ".join(f"{p} {support_by[p]:.3f}" for p in POLICIES)
                           + f"; {extra[OURS]['recall_writes']} of {len(turns)} turns wrote the block")
