"""Case 7: what recalled memories cost in model tokens over a 50-turn session.

A user holds the memories below in our store (embedded engine, the packaged
offline embedder, so similarity is real). A scripted 50-turn session runs
through a real graph, ``START -> recall -> model``, on our checkpointer and
store, twice:

- **inject-once**: the package's recall node (``make_recall_node``, k=5):
  a memory enters the history once, as a labelled message, and again only
  if it changed;
- **re-inject every turn**: a naive recall node that appends the same top 5
  memories (same text, same labels) as new messages every turn.

The model node counts, with the packaged WordPiece tokenizer, the tokens of
the memory messages in what it receives each turn (the whole history):
that sum over the session is the memory tokens *sent to the model*. Also
reported: memory tokens *added to the history*, and a third policy that
puts the 5 recalled memories in every call's system prompt without keeping
them (computed from the naive run's recalls).

Two scripts: a focused session (one task) and a broad one (eight topics).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import START, MessagesState, StateGraph

from bench.common import Env, Results, Target, ms_since, now
from bench.profiles import Profile

MEMORIES = [
    ("travel", "Prefers an aisle seat on flights and always checks in a small suitcase."),
    ("travel", "Usually flies out of Lisbon airport; avoids early morning departures before 8 am."),
    ("travel", "Likes quiet hotel rooms on a high floor with a view, away from the lift."),
    ("travel", "Has a rail pass and prefers the train for trips under four hours."),
    ("travel", "Is planning a hiking holiday in the Dolomites next September with a friend."),
    ("travel", "Gets motion sickness on ferries and small boats."),
    ("health", "Is allergic to penicillin; reacts with a rash."),
    ("health", "Takes a blood pressure tablet every morning with breakfast."),
    ("health", "Has a dentist check-up every six months, next one in March."),
    ("health", "Runs three times a week and is training for a 10 km race."),
    ("health", "Had knee surgery two years ago and avoids steep downhill running."),
    ("food", "Is vegetarian but eats fish occasionally when travelling."),
    ("food", "Dislikes coriander and very spicy food."),
    ("food", "Loves Portuguese custard tarts and strong espresso."),
    ("food", "Is trying to cut down on sugar during the week."),
    ("food", "Cooks a big vegetable soup every Sunday for the week."),
    ("work", "Works as a project manager at an engineering firm."),
    ("work", "Has a weekly team meeting on Monday at 10 am."),
    ("work", "Is preparing the quarterly budget report due at the end of the month."),
    ("work", "Prefers short written summaries over long calls."),
    ("work", "Manager is called Ana; the client contract renews in June."),
    ("family", "Has two children, aged 7 and 10, who play football on Saturdays."),
    ("family", "Sister lives in Porto and visits once a month."),
    ("family", "Parents' wedding anniversary is on the 12th of May."),
    ("family", "The family dog is a border collie called Nico."),
    ("hobbies", "Plays the piano and takes lessons on Thursday evenings."),
    ("hobbies", "Reads crime novels; recently finished a book by a Scandinavian author."),
    ("hobbies", "Enjoys jazz concerts and has a season ticket to the local jazz club."),
    ("hobbies", "Grows tomatoes and herbs on the balcony."),
    ("hobbies", "Is learning Italian with an app, about 15 minutes a day."),
    ("home", "Lives in a flat on the fourth floor without a lift."),
    ("home", "The boiler was serviced last autumn; the landlord handles repairs."),
    ("home", "Prefers reminders by email rather than text messages."),
    ("money", "Saves a fixed amount every month for the children's education."),
    ("money", "Wants to keep the holiday budget under 2,000 euros."),
    ("money", "Pays the rent on the first day of each month."),
]

# A broad session: eight topics in 50 turns (most of the user's memories
# become relevant at some point).
BROAD = [
    "Can you help me plan a trip to Rome next month?",
    "What seat should I book on the flight?",
    "Find me a hotel near the centre.",
    "Should I take the train from the airport?",
    "What restaurants would suit me there?",
    "I want to try some local food but nothing too spicy.",
    "Remind me what I need to pack.",
    "Can I fit the trip into my holiday budget?",
    "Let's go back to work: what's on my calendar Monday?",
    "Draft a summary of the budget report for my manager.",
    "When is the client contract up for renewal?",
    "I need to prepare for the team meeting.",
    "Write a short update email for Ana.",
    "What should I cook for dinner tonight?",
    "Suggest a healthy breakfast.",
    "I feel like something sweet, any ideas?",
    "Plan my meals for the week.",
    "How should I train this week for my race?",
    "My knee hurts a bit after running downhill, what should I do?",
    "Is there anything I should tell the doctor about medicines?",
    "Remind me about my dentist appointment.",
    "What gift could I get for my parents' anniversary?",
    "My sister is visiting, what could we do together?",
    "The kids have football on Saturday, plan the morning.",
    "Who will look after the dog while we travel to Rome?",
    "Find a jazz concert in Rome during my trip.",
    "Any Italian phrases I should practise before the trip?",
    "Recommend a crime novel for the flight.",
    "What should I do with my tomato plants while I'm away?",
    "When is my piano lesson this week?",
    "Book the train tickets for the Dolomites trip.",
    "What hiking gear do I need for September?",
    "Can we take a boat trip on Lake Garda on the way?",
    "How much should I save this month?",
    "When do I need to pay the rent?",
    "Set up reminders for my bills.",
    "The boiler is making a noise, who should I call?",
    "Is there a lift in my building for moving furniture?",
    "Remind me of my flight preferences for the Rome booking.",
    "Let's finalise the Rome hotel booking.",
    "What time is my flight, and is it too early?",
    "Plan the first evening in Rome with dinner and music.",
    "What vegetarian dishes are typical in Rome?",
    "I'd like a coffee and a pastry near the hotel in the morning.",
    "Prepare my out-of-office message for work.",
    "Tell my manager I'm on holiday next week.",
    "Pack my medicines for the trip.",
    "Check the weather for running in Rome.",
    "Summarise the whole trip plan for me.",
    "Thanks, that's everything for today.",
]


# A focused session: 50 turns on one task (planning a trip to Rome).
FOCUSED = [
    "Can you help me plan a trip to Rome next month?",
    "Which dates would work best for a long weekend?",
    "What seat should I book on the flight?",
    "Are there flights later in the morning?",
    "How much luggage should I take?",
    "Find me a hotel near the centre.",
    "I'd prefer somewhere quiet, can you check the rooms?",
    "Does the hotel have breakfast included?",
    "Should I take the train from the airport?",
    "How long is the train ride into the city?",
    "What restaurants would suit me there?",
    "I want to try some local food but nothing too spicy.",
    "What vegetarian dishes are typical in Rome?",
    "Is fish common on Roman menus?",
    "Where can I get a good espresso near the hotel?",
    "Can I fit the trip into my holiday budget?",
    "How much should I plan for food each day?",
    "Are museum tickets expensive?",
    "Which museums should I book in advance?",
    "Plan the first day of sightseeing.",
    "Plan the second day with a bit less walking.",
    "Is there a park where I could go for a run?",
    "How far is a 10 km route from the hotel?",
    "Find a jazz concert in Rome during my trip.",
    "Book two tickets for the concert.",
    "What should I wear for the evening?",
    "Any Italian phrases I should practise before the trip?",
    "How do I ask for a vegetarian menu in Italian?",
    "Recommend a novel to read on the flight.",
    "Is a day trip to the coast worth it?",
    "How would I get to the coast by train?",
    "Is a boat trip along the coast a good idea?",
    "What is the weather usually like then?",
    "Should I pack an umbrella?",
    "Remind me what I need to pack.",
    "Pack my medicines for the trip.",
    "Do I need travel insurance?",
    "Which card should I use abroad?",
    "Let's finalise the Rome hotel booking.",
    "Remind me of my flight preferences for the Rome booking.",
    "Confirm the train tickets from the airport.",
    "Make a reservation for dinner on the first evening.",
    "Pick a restaurant for the last evening with a view.",
    "What souvenirs could I bring back for the family?",
    "Plan the trip back to the airport.",
    "What time should I leave the hotel on the last day?",
    "Put the whole itinerary in one list.",
    "Send me the itinerary by email.",
    "Is there anything I forgot?",
    "Thanks, that's everything for the trip.",
]

SCENARIOS = {"focused session": FOCUSED, "broad session": BROAD}


def _tokenizer():
    from tokenizers import Tokenizer

    from langgraph_trustmem.store.embeddings import packaged_model_dir

    tok = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def _graph(saver: Any, store: Any, recall: Any, seen: list) -> Any:
    from langgraph_trustmem import label

    def model(state: MessagesState) -> dict:
        seen.append(list(state["messages"]))
        return {"messages": [label(AIMessage("Noted."), "personal", source="model")]}

    b = StateGraph(MessagesState)
    b.add_node("recall", recall)
    b.add_node("model", model)
    b.add_edge(START, "recall")
    b.add_edge("recall", "model")
    return b.compile(checkpointer=saver, store=store)


def naive_recall(store: Any, limit: int = 5) -> Any:
    """Recall without de-duplication: the top ``limit`` memories appended
    every turn (the package's message text and labels)."""
    import uuid

    from langgraph_trustmem import label
    from langgraph_trustmem.nodes.recall import MEMORY_SOURCE, latest_user_text, memory_text

    def recall(state: MessagesState, config: RunnableConfig) -> dict:
        query = latest_user_text(state["messages"])
        user = config["configurable"]["user_id"]
        hits = store.search(("memories", user), query=query, limit=limit)
        out = []
        for item in hits:
            msg = SystemMessage(f"Memory: {memory_text(item.value)}", id=str(uuid.uuid4()))
            out.append(label(msg, item.label.level, source=MEMORY_SOURCE))
        return {"messages": out}

    return recall


def _memory_messages(messages: list) -> list:
    from langgraph_trustmem import label_of

    return [m for m in messages if (lab := label_of(m)) is not None and lab.source == "memory"]


async def case_recall(env: Env, prof: Profile, res: Results) -> None:
    import uuid

    from langgraph_trustmem import TrustCheckpointSaver
    from langgraph_trustmem.nodes import make_recall_node
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
        for i, (topic, text) in enumerate(MEMORIES):
            writer.put(("memories", user), f"mem-{i:03d}", {"text": text, "topic": topic})
        for scenario, script in SCENARIOS.items():
            turns = script[: prof.recall_turns]
            size = f"{scenario}, {len(turns)} turns"
            sent_by: dict[str, int] = {}
            added_by: dict[str, int] = {}
            prompt_tokens = 0
            distinct = 0
            latencies: list[float] = []
            for policy, recall in (("inject-once", make_recall_node(store, limit=5)),
                                   ("re-inject every turn", naive_recall(store, 5))):
                seen: list[list] = []
                graph = _graph(saver, store, recall, seen)
                config = {"configurable": {"thread_id": f"recall-{uuid.uuid4().hex[:8]}", "user_id": user,
                                           "trust": "personal"}}
                before = 0
                for message in turns:
                    t0 = now()
                    graph.invoke({"messages": [HumanMessage(message)]}, config)
                    latencies.append(ms_since(t0))
                    mem = _memory_messages(seen[-1])
                    sent_by[policy] = sent_by.get(policy, 0) + sum(ntok(str(m.content)) for m in mem)
                    if policy == "re-inject every turn":
                        prompt_tokens += sum(ntok(str(m.content)) for m in mem[before:])
                    before = len(mem)
                final = _memory_messages(graph.get_state(config).values["messages"])
                added_by[policy] = sum(ntok(str(m.content)) for m in final)
                if policy == "inject-once":
                    distinct = len(final)
            sent, added = "memory tokens sent to the model", "memory tokens added to the history"
            res.s(case, sent, size, "inject-once", unit="tokens").samples.append(sent_by["inject-once"])
            res.s(case, sent, size, "inject-once", unit="tokens").extra.update(
                {"distinct_memories_recalled": distinct, "memories_in_store": len(MEMORIES),
                 "turn_ms_median": round(sorted(latencies)[len(latencies) // 2], 2)}
            )
            res.s(case, sent, size, "re-inject every turn", unit="tokens").samples.append(sent_by["re-inject every turn"])
            res.s(case, sent, size, "system prompt every turn", unit="tokens").samples.append(prompt_tokens)
            res.s(case, added, size, "inject-once", unit="tokens").samples.append(added_by["inject-once"])
            res.s(case, added, size, "re-inject every turn", unit="tokens").samples.append(added_by["re-inject every turn"])
            res.compare(case, sent, size, "inject-once", "re-inject every turn",
                        targets=[Target("ratio_max", 0.1, text=">= 10x fewer (ratio <= 0.1)")], primary=True)
            res.compare(case, sent, size, "inject-once", "system prompt every turn")
            res.compare(case, added, size, "inject-once", "re-inject every turn")
            res.note(case, f"{scenario}: {distinct} distinct memories injected out of {len(MEMORIES)} "
                           f"over {len(turns)} turns (k=5, no score threshold)")
