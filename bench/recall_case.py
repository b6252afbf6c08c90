"""Case 7: what recalled memories cost in model tokens over a 50-turn session.

A user holds the memories below in our store (embedded engine, the packaged
offline embedder, so similarity is real). Each turn of the scripted session
recalls the top 5 memories for the user's message (a real ``search``), and
the two injection policies are simulated on the actual texts:

- **inject-once**: a recalled memory is added to the history as a message
  the first time it is recalled, never again;
- **re-inject every turn**: the 5 recalled memories are added to the history
  as messages every turn (a recall node without de-duplication).

Every turn the model receives the whole history, so the memory tokens *sent*
in a turn are those of every memory message in the history at that turn.
Tokens are counted with the packaged WordPiece tokenizer on the exact
message texts. Also reported: memory tokens *added* to the history, and the
tokens sent by a third policy that puts the 5 recalled memories in the
system prompt of every call without keeping them in the history.
"""

from __future__ import annotations

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

TURNS = [
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


def _tokenizer():
    from tokenizers import Tokenizer

    from langgraph_trustmem.store.embeddings import packaged_model_dir

    tok = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def memory_message(text: str, level: str) -> str:
    return f"[Memory recalled for this user, level {level}] {text}"


async def case_recall(env: Env, prof: Profile, res: Results) -> None:
    from langgraph_trustmem.store import TrustStore
    from langgraph_trustmem.store.embeddings import default_embeddings

    from bench.store_cases import in_run

    case = "7. recall injection"
    turns = TURNS[: prof.recall_turns]
    emb = default_embeddings()
    tok = _tokenizer()
    ntok = lambda s: len(tok.encode(s, add_special_tokens=False).ids)  # noqa: E731
    user = "recall-user"
    index = {"dims": emb.dims, "embed": emb, "fields": ["text"]}
    latencies: list[float] = []
    with TrustStore.from_conn_string(
        env.db("recall_ours"), key=env.key, qdrant=str(env.path("recall-edge") / "shard"), index=index
    ) as store:
        store.setup()
        with in_run(user):
            for i, (topic, text) in enumerate(MEMORIES):
                store.put(("memories", user), f"mem-{i:03d}", {"text": text, "topic": topic})
            once_in_history = 0  # memory tokens in the history, inject-once
            every_in_history = 0  # memory tokens in the history, re-inject every turn
            injected: set[str] = set()
            sent_once = sent_every = sent_prompt = 0
            added_once = added_every = 0
            for t, message in enumerate(turns):
                t0 = now()
                hits = store.search(("memories", user), query=message, limit=5)
                latencies.append(ms_since(t0))
                toks = {h.key: ntok(memory_message(h.value["text"], h.label.level)) for h in hits}
                for h in hits:
                    if h.key not in injected:
                        injected.add(h.key)
                        once_in_history += toks[h.key]
                        added_once += toks[h.key]
                every_in_history += sum(toks.values())
                added_every += sum(toks.values())
                sent_once += once_in_history
                sent_every += every_in_history
                sent_prompt += sum(toks.values())
    size = f"{len(turns)} turns"
    op = "memory tokens sent to the model"
    res.s(case, op, size, "inject-once", unit="tokens").samples.append(sent_once)
    res.s(case, op, size, "inject-once", unit="tokens").extra.update(
        {"distinct_memories_recalled": len(injected), "memories_in_store": len(MEMORIES),
         "recall_search_ms_median": round(sorted(latencies)[len(latencies) // 2], 3)}
    )
    res.s(case, op, size, "re-inject every turn", unit="tokens").samples.append(sent_every)
    res.s(case, op, size, "system prompt every turn", unit="tokens").samples.append(sent_prompt)
    op2 = "memory tokens added to the history"
    res.s(case, op2, size, "inject-once", unit="tokens").samples.append(added_once)
    res.s(case, op2, size, "re-inject every turn", unit="tokens").samples.append(added_every)
    res.compare(case, op, size, "inject-once", "re-inject every turn",
                targets=[Target("ratio_max", 0.1, text=">= 10x fewer (ratio <= 0.1)")], primary=True)
    res.compare(case, op, size, "inject-once", "system prompt every turn")
    res.compare(case, op2, size, "inject-once", "re-inject every turn")
    res.note(case, f"{len(injected)} distinct memories recalled out of {len(MEMORIES)} over {len(turns)} turns (k=5)")
