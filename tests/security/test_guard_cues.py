"""The guard's last line (``guard/cues.py``): a credential named and a value of its shape
beside it, whatever the phrasing, language or layout, while talk about credentials, and
numbers that are something else, pass.

Every case goes through ``Guard.check`` as ``TrustStore.put`` calls it; the phrasings are
written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard
from langgraph_trustmem.guard.cues import cued_secret, document

REFUSED = [
    # codes with the thing they open, in several languages and word orders
    ({"text": "Codigo do portao da garagem: 4471"}, "PIN"),
    ({"text": "Kod do domofonu to 5930"}, "PIN"),
    ({"text": "Il codice del cancello è 8264"}, "PIN"),
    ({"text": "Klucz do piwnicy jest w skrzynce, kod skrzynki 3318"}, "PIN"),
    ({"text": "Haustürcode: 2291#"}, "PIN"),
    ({"text": "金庫の暗証番号 は 4 8 1 5"}, "PIN"),
    ({"text": "The storage locker padlock 472"}, "PIN"),
    ({"text": "To disarm the alarm enter 9036 and press OFF"}, "PIN"),
    # digits spelled out, mixed with numerals, or as keycaps
    ({"text": "garage door code: nine-4-two-seven"}, "PIN"),
    ({"text": "Kod alarmu: jeden dwa trzy cztery"}, "PIN"),
    ({"text": "bike lock combo 4️⃣2️⃣7️⃣"}, "PIN"),
    # one-time codes
    ({"text": "Verifizierungscode von der Bank: 552901"}, "one-time code"),
    ({"text": "the login code they texted is 771204"}, "one-time code"),
    # a password cue with a value of a password's shape, however it is introduced
    ({"text": "senha do email da empresa é Lagarto#2291"}, "password"),
    ({"text": "pw for the NAS -> K3ttle!blue"}, "password"),
    ({"text": "Wachtwoord van de router staat hier: zonneBloem77"}, "password"),
    ({"text": "Gastnetz WLAN: Sonnenhof_5G / tulpe88Regen"}, "password"),
    ({"text": "wifi password = s u m m e r 2 0 1 9 !"}, "password"),
    # the value in another field of the record, or split over several
    ({"note": "alarm panel code", "value": "60317"}, "PIN"),
    ({"label": "locker combination", "a": "12", "b": "40"}, "PIN"),
    ({"what": "office wifi password", "first": "Gran1te", "second": "Peak%42"}, "password"),
    ({"payload": '{"title": "SIM PIN", "value": "2204"}'}, "PIN"),
    (
        [
            {"role": "user", "content": "saving the laptop password in two messages"},
            {"role": "user", "content": "Orchid"},
            {"role": "user", "content": "Lamp93!"},
        ],
        "password",
    ),
    # a service's credential named in another language, its value random
    ({"text": "Token do painel da Hetzner (guardar): q8Xv2LmN4pR7tY1wZ9aB3cD6eF0gH5jK8lM2nP4rS7uV"}, "generic API key"),
    ({"text": "credentials for the staging mailer are Zk4mQ9vT2xW7bR1nY6cH3pL8sD5fG0jA"}, "generic API key"),
    # a security question's answer, stated
    ({"text": "Bank security question, first pet's name = Biscuit"}, "security question answer"),
    ({"text": "Respuesta de seguridad: Valparaiso"}, "security question answer"),
    # a phone's or a room's code, in the words people use for unlocking
    ({"text": "el código de desbloqueo del móvil es 3317"}, "PIN"),
    ({"text": "Il codice di sblocco del tablet è 90412"}, "PIN"),
    ({"text": "Entsperrcode vom Handy lautet 7720"}, "PIN"),
    ({"text": "the bike room code is 1984, then the key button"}, "PIN"),
    ({"text": "カミさんのスマホのパスコードは 551902"}, "PIN"),
    # a code on the line after its name, or before it with a separator
    ({"text": "work phone PIN\n0486"}, "PIN"),
    ({"text": "7741 - the storage room code"}, "PIN"),
    ({"text": "PIN for the replacement card that came in the mail: 3360"}, "PIN"),
    # a card's security code, the card's last digits before it
    ({"text": "CVV of the card ending 5521 is 804"}, "card security code"),
    ({"text": "Prüfziffer der neuen Karte: 316"}, "card security code"),
    # recovery codes (plural), backup codes in a row, an alphanumeric one-time code
    ({"text": "GitHub recovery codes: 9f3k2-ab81x 77qpc-0zz1m"}, "2FA secret"),
    ({"text": "backup codes for Proton: q8ra62kt  m3vv0x9p  hh4c1tte"}, "2FA secret"),
    ({"text": "Battle.net authenticator code: 7QK4M"}, "one-time code"),
    # character codes, a code word, an app password, a password given a sentence later
    ({"text": "locker code as char codes: [50, 57, 48, 51]"}, "PIN"),
    ({"text": "the family code word is marmalade"}, "security question answer"),
    ({"text": "iCloud app-specific password: wxqz-plmt-rbva-kduc"}, "password"),
    ({"text": "Changed the router password today. New one is Heron+Lake42"}, "password"),
    # a record whose one item names a PIN or a code and whose value field holds it
    ({"desc": "my voicemail PIN", "v": "5521", "ts": "2025-10-08T02:27:25Z"}, "PIN"),
    ({"payload": '{"desc": "the login code the bank just sent", "v": "482913"}'}, "one-time code"),
    # words that only start like talk about a credential ("must", "ask") do not make it talk
    ({"text": "Ziraat internet şubesi: müşteri no 55120931, şifre 714205"}, "PIN"),
    ({"text": "the Mustang's alarm code is 5180"}, "PIN"),
    # twelfth round: a clause about forgetting before the cue does not make it talk
    ({"text": "In case I forget again, the shed lock code is 3390"}, "PIN"),
    ({"text": "Gdybym zapomniała, kod do bramy to 61184"}, "PIN"),
    # "to" announces a code after a code's name ("kod ... to 4471"); after a number it is a range
    ({"text": "Set the gate code to 7719 for the summer"}, "PIN"),
    # an elided article before the thing a code opens, a combination at a sentence's end
    ({"text": "Il codice dell'antifurto è 30917"}, "PIN"),
    ({"text": "Koden till skåpet i omklädningsrummet 22-14-9."}, "PIN"),
    ({"text": "le code de la messagerie vocale : 6672"}, "PIN"),
    # Chinese, Japanese, Korean: the cue glued to its neighbours, the value after a copula
    ({"text": "家里WiFi密码是Panda!2291，别告诉别人"}, "password"),
    ({"text": "ルーターのパスワードを変えたので新しいのはmomiji22#Kです"}, "password"),
    ({"text": "현관 도어락 비밀번호는 738201이야"}, "password"),
    ({"text": "车库门的密码是四、四、七、一"}, "PIN"),
    # compounds, "is now", a bracket before "is", a password given the sentence after
    ({"text": "Skrivarens adminlösenordet: Kvarn77!tak"}, "password"),
    ({"text": "Het wachtwoord van het gast-netwerk is nu molen-Brug-58"}, "password"),
    ({"text": "Le mot de passe du NAS (celui du salon) est Ch@teau917"}, "password"),
    ({"text": "Could you hold on to my Steam password? It's Vx9!kettle-Rain"}, "password"),
    ({"text": "Cambié la contraseña del router; la nueva es Lirio_88x"}, "password"),
    ({"text": "Hulu creds river_stone_tall_62"}, "password"),
    ({"text": "school app passcode m4ple-Tree9"}, "password"),
    # a value down a column, digits with a symbol between, an account list without its header
    ({"text": "NAS admin password (one per line):\nK\ne\nt\nt\nl\ne\n7\n#\nq"}, "password"),
    ({"text": "shed padlock: 5▪8▪1▪9"}, "PIN"),
    ({"text": "github,kai@example.org,Wren!4417bay\nsteam,kai@example.org,otter-Cliff-29?"}, "password"),
    # a key a vendor's rule names stays refused whatever the memory says of it
    ({"text": "OpenAI key sk-proj-Q7vX2mLr9TbW4kZc8NpJ3sHf6YdG1uEa5RoVi0Ct it is safe to share publicly"}, "OpenAI key"),
    # "not a public key" says the opposite
    ({"text": "The worker's token is not a public key: 9fQ2xLw8ZkR4vT7mN1bYc6HsJ3dPa5Ge"}, "generic API key"),
    # a generated passphrase announced after the cue; leet and device-login cues; a PUK
    ({"text": "Vaultwarden Hauptpasswort ist orbit maple crane velvet, bitte merken"}, "password"),
    ({"text": "Spotify p4$$: ranger9-Lamp!"}, "password"),
    ({"text": "the laptop login = tundra4417meadow"}, "password"),
    ({"text": "PUK of the old SIM (if it locks again) -> 55190834"}, "PIN"),
    # more languages: Arabic copulas and lock words, Korean and Japanese lock numbers, answers
    ({"text": "رقم قفل الخزانة هو 7302"}, "PIN"),
    ({"text": "غيرت كلمة مرور البريد، الجديدة Sahar!Nour-x"}, "password"),
    ({"text": "창고 자물쇠 번호 4417 잊지 마"}, "PIN"),
    ({"text": "物置のダイヤルロックの番号：3306"}, "PIN"),
    ({"text": "银行的安全问题（小学的名字）答案是Maple77"}, "security question answer"),
    ({"text": "код голосовой почты: 8814"}, "PIN"),
    ({"text": "kod do kłódki w piwnicy to 3-19-7"}, "PIN"),
    ({"text": "Fahrradkombination: 17-4-9"}, "PIN"),
    ({"memory": "O CVV do cartão final 7735 é 270", "category": "to-remember"}, "card security code"),
    # a key the memory calls public is refused when it is not the one so called (the review)
    ({"text": "Stripe publishable key goes in checkout.js. Backend token 9fQ2xLw8ZkR4vT7mN1bYc6HsJ3dPa5Ge"},
     "generic API key"),
    ({"text": "Algolia search-only key is in the widget; admin api key 9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d"},
     "generic API key"),
    ({"text": "authDomain x.firebaseapp.com; admin token Zx8Kq2Lm9Pw4Rt7Vb3Nc6Hy1Ju5Ks0Qe"}, "generic API key"),
    ({"publishable_key_docs": "see wiki", "token": "Zx8Kq2Lm9Pw4Rt7Vb3Nc6Hy1Ju5Ks0Qe"}, "generic API key"),
    # a value with the credential named after it, in a comment or a bracket; SQL storing one
    ({"text": "const apiKey = 'Qm7xWv2Lp9Rk4Tz8Nc3Hb6Yd1Gf5Js0Ae'; // Pinecone credential"}, "generic API key"),
    ({"text": "b64 twice -> dGhpcyBpcyBhIHRlc3Q= ... actually: Rv8!mintLake42 (password for the tax site)"}, "password"),
    ({"text": "UPDATE app_config SET val = 'Zx8Kq2Lm9Pw4Rt7Vb3Nc6Hy1Ju5Ks0Qe' WHERE name = 'sendgrid_api_key';"},
     "generic API key"),
    ({"text": "INSERT INTO accounts (site, login, password) VALUES ('etsy', 'ana', 'Tulip#2291x');"}, "password"),
    # a password in a file's name; digits with a spaced symbol between; rows split by ";"
    ({"text": "exported it to ~/Desktop/netflix_pw_Kq8vLm2Tz.txt for now"}, "password"),
    ({"text": "bike lock code: 7 💠 3 💠 9 💠 1"}, "PIN"),
    ({"text": "etsy;ana@example.org;Tulip#2291x\nsteam;ana@example.org;Otter-Pond88!"}, "password"),
    # a PIN down a column of four lines
    ({"text": "Door code (read down):\n4\n8\n2\n1"}, "PIN"),
    # a disguise undone, then the cue read: a PIN written in morse
    ({"text": "the garage keypad code in morse, as the kids like it: ....- / ..--- / -.... / ---.."}, "PIN"),
]

PASSES = [
    # codes and numbers that open nothing, near the words of the eleventh round's cues
    {"text": "The phone code for Portugal is +351"},
    {"text": "PIN for the new card arrives by post within 5 days: 2026 edition"},
    {"text": "Our ticket 55021 - the user never got the OTP code, fixed now"},
    {"text": "The CVV is the 3 digits on the back of the card"},
    {"text": "Recovery codes are printed and kept in the fireproof box"},
    {"text": "I reset my password yesterday. New one is in the password manager."},
    {"text": "Voicemail box is full again, 12 messages"},
    {"text": "the code word for the surprise party is a secret, ask Dana"},
    # the eleventh round's review: ordinary memories its first rules refused
    {"text": "Dell laptop model code 9315 is the one with the 12th gen CPU."},
    {"text": "Segreteria studenti: codice esame 30211, aula 4."},
    {"text": "The white tablet with imprint code IP 190 is ibuprofen"},
    {"text": "Commande 448812 : le code SMS est arrivé, livraison mardi."},
    {"text": "1998 — Dad installed the garage door keypad code panel himself."},
    {"text": "The CVV2 mismatch declines were 312 last month, up from 250."},
    {"text": "Turned on 2FA on pixel8a today."},
    {"text": "MFA: okta42 tenant migrated"},
    {"text": "The Wordle secret word yesterday was CRANE"},
    {"text": "App password help page: then tick mail when done"},
    {"text": "Switched password managers last month. New one is 1Password."},
    {"text": "Our router was on WPA2. Now it's WPA3-Personal."},
    {"text": "Arduino Mega analog pins (54, 55, 56, 57) are A0-A3."},
    {"text": "Password for pi@raspberrypi is still the factory default"},
    {"text": "The wifi password is printed on the sticker under the router, network name: Vodafone-5G2X"},
    {"text": "Shopping: card reader with PIN pad\n£120 at Argos"},
    {"desc": "door code changed last week", "v": "2024"},
    {"text": "She forgets her card PIN every month, asked the bank for 3 reminders"},
    {"title": "PIN pad model", "value": "4421"},
    {"note": "zip code of the office", "value": "90210"},
    {"label": "error code", "value": "404"},
    # talk about credentials with no credential in it
    "Remind me to change the garage door code next week",
    "The new password policy needs at least 12 characters and a symbol",
    "I forgot my PIN again, the bank is sending a new letter in 5 days",
    "password: ${APP_PASSWORD} comes from the environment",
    "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
    "The wifi password is on the sticker under the router",
    "Passport renewal appointment on 14/03/2026 at 10:30",
    "Deploy key fingerprint: 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc",
    "token count for the model call was 2048",
    # numbers that are something else
    "Door-to-door delivery to 221 Baker Street, code area 4410 is not ours",
    "Delivery address: 12 Lake Road, Pune, PIN code 411001",
    "The alarm goes off at 0630 on weekdays",
    "Gate B14 at the airport, boarding 1945",
    "Promo code SPRING2025 gives 20% off",
    "Her mother's maiden name is on the family tree we drew, Nowak, from Lodz",
    "Booking reference 55821 for the hotel in Porto",
    "Bus pass for zones A-B, valid until 2026-09-30",
    "Boarding pass for KL1234 is in the app",
    "Security question setup is still pending, do it after 5 pm",
    "Le code postal est 75011 et l'interphone ne marche pas",
    "Die PIN für die neue Karte kommt per Post in 3 Werktagen",
    "Alarm set for 0615 tomorrow, flight at 0945",
    "Tracking code 4471 2290 1123 for the parcel",
    "Wi-Fi at the cafe is free, network name CafeLuna, no password needed",
    "Model number of the router: RT-AX58U, firmware 3.0.0.4",
    # a record whose descriptive fields are not pieces of a value
    {"title": "Wifi password changed", "source": "chat", "created_at": "2025-11-03"},
    # found by the round's review: numbers named in other ways, "pass", "Tan", phone numbers
    "门诊号码 0452",
    "医保卡号码 330102",
    "카드 번호 10234",
    "Dr Tan appointment 1430 on Friday",
    "Senha do atendimento no hospital: 132",
    "Exam pass mark 650",
    "Ski pass 445 for the season",
    "Kod karty pacjenta 12345",
    "Library card code 20318",
    "Clave de la cita: 4471",
    "Phone code for Germany 0049",
    "Building code compliance inspection passed, permit 20931",
    "The alarm system error code 3012",
    "My PIN was blocked after 3 wrong tries, hotline 0800 1234",
    "New PIN letter arrived, call the bank on 0800 123 456 to activate",
    "padlock 2 pack for 1299 at Walmart",
    "Bought a keypad 1000 series for the front door",
    "Pin this: 3 to 4 glasses of water a day",
    "Sicherheitsfrage vergessen, Bank anrufen 0800 1234",
    {"item": "padlock", "price": "899"},
    {"title": "New bike lock combo", "shop": "Decathlon", "price": "2500"},
    {"question": "Which card has the PIN reminder?", "answer": "Visa", "last4": "4821"},
    {"rx": "49745080", "refill": "18795134", "qty": "30", "days": "90"},
    {"todo": ["To do: call bank about card PIN", "Ibuprofen", "400", "tomorrow"]},
    # twelfth round: the same cues with no credential beside them
    "In case I forget again, the shed lock code is on the fridge",
    "Raise the limit from 1000 to 2000 on the door code panel",
    "Messagerie pro : code d'erreur 550 quand j'envoie à ce client.",
    "密码长度至少12位，需要包含大写字母",
    "验证码有效期为5分钟",
    "パスワードは定期的に変更すること",
    "비밀번호는 3개월마다 바꿔야 해",
    "Het wachtwoord van het gast-netwerk is nu korter",
    "SSH password login for deploy@buildbox is disabled, keys only",
    "Could you hold on to my Steam password? It's in the vault",
    "Hulu creds are in the family vault",
    {"desc": "passcode changed", "v": "yesterday"},
    # keys made to be seen, as the memory says: search-only, client-side, a web config
    {"search": {"appId": "K3XQ7PLM2A", "searchOnlyApiKey": "5c1f0e9d8b7a6c5d4e3f2a1b0c9d8e7f", "note": "search-only, safe in the browser"}},
    "Checkout page uses the publishable key id rzp_live_Hk29Xb7Qw1Lmz4, the public identifier; the secret stays on the server",
    {"apiKey": "AIzaSyQ8vX2mLr9TbW4kZc8NpJ3sHf6YdG1uEa5", "authDomain": "garden-club-7f3.firebaseapp.com", "projectId": "garden-club-7f3"},
    # the independent review's look-alikes of the round's rules
    "The wifi password is taped inside kitchen cupboard door.",
    "Das Kennwort ist sehr lang und komplett zufällig gewählt.",
    "Netflix password: dad handles billing stuff.",
    "Dentist, office@smilecare.com, Mon-Fri_9AM",
    "Jane Doe, jane@acme.com, @JaneD_1990",
    "Caterer, info@tastyfood.de, Order#A-2291",
    "密码是2023年改的，下次记得提醒我再改",
    "WiFi密码在路由器背面，路由器型号是AX3000",
    "パスワードは忘れた、電話番号は0312345678",
    "PC login broke after KB5034441, rolled back.",
    "Windows logon issue resolved by rebuilding profile C:\\Users\\kai2.",
    "Book club pick: 'S3cr3t H1story' by an indie author.",
    "Photo creds: @annasnaps_22 on Instagram.",
    "We gave the door code to 150 residents via the newsletter.",
    "Код голосовой почты можно сменить в приложении, версия 5.2.1.",
    "Combination lock for the shed, bought 11-3-2.",
    # twelve common words said to be a word list, a masked card's last digits after a PIN's
    # name, a redacted value, a link's numeric ids
    "vocabulary words for the quiz: apple lemon bread garlic tomato butter sugar banana cheese celery cereal pizza",
    "PIN: [hidden], card **** **** **** 7731",
    "The crash log showed password=[REDACTED], nothing leaked.",
    "Link to the thread: https://discord.com/channels/876598294867330703/104992000228722667/4476341376603262320",
    # a file named after a password policy, a score, a contact row split by ";"
    "the file is at /home/ana/docs/pw_policy_2024.txt",
    "score was 3 - 2 - 1 - 0 in the final",
    "dentist;office@smile.example;Mon-Fri_9AM",
    # SQL with nothing secret in its credential-named columns; a comment naming a key after an id
    "INSERT INTO users (name, password_hint) VALUES ('Ana', 'my dog name');",
    "INSERT INTO logs (id, token_count) VALUES (5, '4096');",
    "UPDATE settings SET value = 'dark' WHERE name = 'theme';",
    "commit 5f4dcc3b5aa765d61d8327deb882cf99a1b2c3d4 (hash of the release key)",
    # plain words after a password's name are a sentence, not a passphrase
    "The wifi password is written on the router",
    "Password: same as the old one but with a new number",
    "The admin login for the router is admin by default",
    "Windows login is slow since the update",
    "사물함 번호 표는 1층에 있어요",
    "Birthday party on 4-12-26 at the lake",
    # a word with a prefix in another script is not a password ("I changed the password for Maccabi")
    "שיניתי את הסיסמה ל-מכבי אתמול",
    # an env template's empty variables are not one value wrapped over lines
    "# .env.sample\nMAIL_PASSWORD=\nREDIS_URL=\nWORKERS=4000",
    # a contact list, numbered steps, a version
    "dentist,info@smile-clinic.example,Mon-Fri 9-5\nplumber,joe@pipes.example,call first",
    "steps: 1•2•3•4 then done",
    "Firmware 1.2.3.4 on the router",
]


@pytest.mark.parametrize(("value", "kind"), REFUSED)
def test_a_named_credential_with_its_value_is_refused(guard, value, kind):
    with pytest.raises(SecretRejected) as err:
        guard.check(value, namespace=("memories", "u1"), key="m1")
    assert kind in err.value.kinds
    assert not any(ch.isdigit() for ch in str(err.value).replace("2FA", ""))  # the kind, never the value


@pytest.mark.parametrize("value", PASSES)
def test_talk_about_credentials_and_other_numbers_pass(guard, value):
    stored, redacted = guard.check(value if isinstance(value, dict) else {"text": value}, namespace=("m", "u1"))
    assert redacted == []
    assert stored == (value if isinstance(value, dict) else {"text": value})


@pytest.mark.parametrize(
    ("value", "namespace", "key"),
    [
        ({"text": "Dr. Meier, Room 214"}, ("memories", "security questions"), None),
        ({"drug": "Metformin", "dose": "500", "unit": "mg"}, ("memories", "pin board"), None),
        ({"text": "Bank asked me to set them up next visit"}, ("memories",), "security_questions"),
    ],
)
def test_a_label_pairs_only_with_a_value_of_one_token(guard, value, namespace, key):
    assert guard.check(value, namespace=namespace, key=key) == (value, [])


@pytest.mark.parametrize(
    "value",
    [{"text": "[" * 1000 + "]" * 1000}, {"text": "[" * 600 + "1" + "]" * 600}, ["door code"] * 500 + ["pin"] * 500],
)
def test_deep_json_in_a_string_and_long_lists_are_read_without_error(guard, value):
    """JSON nested past the depth read, or a list too long to be a split value: answered
    (nothing refused here), never a RecursionError."""
    assert guard.check(value)[1] == []


def test_a_long_list_is_not_joined_into_pieces():
    doc = document(["door code", *[str(i) for i in range(100)]])
    assert not any(line.startswith("door code: ") for line in doc)


def test_a_credential_late_in_a_long_memory_is_still_read(guard):
    with pytest.raises(SecretRejected):
        guard.check({"text": "y" * 4000 + " alarm panel code 60317"})
    log = [{"x": i} for i in range(400)]
    with pytest.raises(SecretRejected):
        guard.check([*log, {"note": "alarm panel code", "value": "60317"}])
    with pytest.raises(SecretRejected):
        guard.check({"text": "8841", "log": log}, namespace=("memories", "front door code"))


def test_the_key_and_namespace_are_read_with_the_value():
    """A label naming the credential and the value naming nothing still pair up."""
    with pytest.raises(SecretRejected):
        Guard().check({"text": "8841"}, namespace=("memories", "u1", "front door code"), key="note")


def test_the_document_joins_pieces_only_after_a_named_credential():
    doc = document({"label": "card PIN", "first": "16", "second": "75", "source": "chat"})
    assert "card PIN: 1675" in doc
    assert cued_secret(doc) == "PIN"
    assert not any(line.endswith("1675") for line in document({"label": "scores", "a": "16", "b": "75"}))


def test_a_memory_key_of_a_word_and_hex_is_an_id_but_a_token_under_it_is_not(guard):
    """``mem_`` + ``uuid4().hex`` is how apps name memories: not a token. A token hex'd into
    the key, a ``mem_``-shaped token in the value, and a "see key" pointing at a hex token
    are still read; a "see key" under a UUID is not."""
    import secrets
    import uuid

    for key in (f"mem_{uuid.uuid4().hex}", f"mem_{secrets.token_hex(20)}", f"note-{secrets.token_hex(16)}"):
        guard.check({"text": "Prefers window seats"}, namespace=("memories", "u1"), key=key)
    guard.check("See key", namespace=("memories", "u1"), key=uuid.uuid4().hex)
    # fixed tokens: one random 32-hex string in 64 is shaped as a version-4 UUID (an id)
    token = "7c2e9b41d08f3a6e5b1c9d27f40a8e63"
    refused = [
        ("note", "mem_" + ("ghp_" + "Zq81Lm0XcV4bN7tR2yW5pK9sD3fG6hJ1aE8u").encode().hex()),
        ("Datadog API key\nmem_" + token, "mem_1a2b3c4d"),
        ("see key", "mem_" + token),
        ("my bank password: ssh-rsa AAAAB3NzaC1yc2EHunter2Secret99x", "mem_1a2b3c4d"),
    ]
    for value, key in refused:
        with pytest.raises(SecretRejected):
            guard.check(value, namespace=("memories", "u1"), key=key)


@pytest.mark.parametrize(
    "value",
    [
        'ZAP_HOOK: "https://hooks.zapier.com/hooks/catch/8812345/u7x2kq9/"',
        "export MAKE_HOOK=https://hook.eu1.make.com/q8w3n1v7z0x4c6b2m5l9k3j7h1g5f2d8",
        'ifttt = "https://maker.ifttt.com/trigger/door/with/key/d9Kx2-LqP0v8ZrT3wYb6_m"',
        "MM_WEBHOOK=https://chat.example.org/hooks/x3k9m2p8q7w1e5r4t6y0u2i8o9",
        "teams: https://acme.webhook.office.com/webhookb2/0f8fad5b-d9cb-469f-a165-70867728950e@"
        "7c9e6679-7425-40de-944b-e07fc1f90ae7/IncomingWebhook/9b2f4c1e7a3d5f8b0c6e2a4d7f1b3c5e/"
        "6fa459ea-ee8a-3ca4-894e-db77e160355e",
        # a value cut into string literals, or written one character at a time
        'const secret = "q8W" + "x2LmN4pR7" + "tY1wZ9aB3" + "cD6eF0gH5"; // the Acme API key',
        "ACME_API_KEY one character at a time: q-8-W-x-2-L-m-N-4-p-R-7-t-Y-1-w",
    ],
)
def test_webhook_urls_and_values_cut_up_are_refused(guard, value):
    with pytest.raises(SecretRejected):
        guard.check({"text": value}, namespace=("memories", "u1"), key="m1")


@pytest.mark.parametrize(
    "value",
    [
        "The Zapier docs explain hooks at https://zapier.com/help/create/code-webhooks",
        "https://chat.example.org/hooks is where incoming hooks are configured",
        'greeting = "Hello, " + "world" + "!"',
        "spell it for the kids: e-l-e-p-h-a-n-t-s",
    ],
)
def test_webhook_talk_and_joined_words_pass(guard, value):
    stored, redacted = guard.check({"text": value}, namespace=("memories", "u1"), key="m1")
    assert redacted == []


# A service's form in its own language: one field says what the code opens, the value
# field is "code" in that language; and the same words in prose, with "is" in Finnish,
# Thai, Greek. Beside them, forms and sentences whose code opens nothing.
FORMS_IN_OTHER_LANGUAGES = [
    ({"Servicio": "el código de la alarma", "Código": "40718"}, "PIN"),
    ({"Palvelu": "ovikoodi", "Koodi": "2291"}, "PIN"),
    ({"Tjeneste": "koden til min mobil", "Kode": "518830"}, "PIN"),
    ({"Сервис": "PUK-код", "Код": "90817262"}, "PIN"),
    ({"Serviciu": "codul de deblocare", "Cod": "8046"}, "PIN"),
    ({"الخدمة": "رمز باب الكراج", "الرمز": "7302"}, "PIN"),
    ("Unohdin taas: SIM-kortin PIN-koodi on 618290", "PIN"),
    ("Kode kunci HP baru: 582014", "PIN"),
    ("a széf kódja: 7731", "PIN"),
    ("Код сигналізації в офісі: 5172", "PIN"),
    ("จดไว้: รหัสปลดล็อกแท็บเล็ต คือ 4096", "PIN"),
    ("The PIN for the tablet? It's 7305.", "PIN"),
    ("Jegyzet: a laptop jelszava Harbor#Pine42", "password"),
    ("wifi-koden i sommerhuset = Tern#Fjord81", "password"),
]
FORMS_THAT_OPEN_NOTHING = [
    {"Servicio": "el código postal", "Código": "28013"},
    {"Palvelu": "tilausnumero", "Koodi": "9386"},
    {"Serviciu": "codul produsului", "Cod": "4471"},
    "Dün Digikala'da سفارش 076-0304757 را ثبت کردم و رمز عبور را عوض کردم.",
    "Kode pos rumah: 40115",
    "Muista: kokous on 1415 huoneessa.",
]


@pytest.mark.parametrize(("value", "kind"), FORMS_IN_OTHER_LANGUAGES)
def test_a_code_named_in_another_language_is_refused(guard, value, kind):
    with pytest.raises(SecretRejected) as err:
        guard.check(value, namespace=("memories", "u1"), key="mem_5e1f")
    assert kind in err.value.kinds


@pytest.mark.parametrize("value", FORMS_THAT_OPEN_NOTHING)
def test_a_code_that_opens_nothing_passes(guard, value):
    assert guard.check(value, namespace=("memories", "u1"), key="mem_5e1f")[0] == value


ASKED_AND_LISTED_REFUSED = [
    ("If PayPal asks 'first pet' on the phone, the answer I set is Biscotti", "security question answer"),
    ('for the Steam account the answer to "city where you were born" is Ghent', "security question answer"),
    ("MetaMask seed phrase - ivory eagle basil breeze nutmeg fig nectar poppy comet granite forest moss", "recovery phrase"),
    ("Frase de recuperación de la cartera: kiosk cobalt delta autumn thunder crystal papaya juniper moss reef flint beacon", "recovery phrase"),
    ("Doğrulama kodunuz: 480091", "one-time code"),
    ("Telefon kilidi 620319", "PIN"),
    ("رمز فتح الهاتف 553107", "PIN"),
    ("カード番号 4539 9458 0730 2151 有効期限06/30", "credit card number"),
]
ASKED_AND_LISTED_PASSES = [
    'the answer to "what is 6x7" is 42',
    "The quiz asked 'favourite teacher' and most of the class answered Mrs Smith",
    "MetaMask seed phrase - write it on paper and keep it in the safe and never share it with anyone",
    "Lịch hẹn nha sĩ, mã xác nhận A6349647.",
    "注文番号4539 9458 0730 2152",
]


@pytest.mark.parametrize(("text", "kind"), ASKED_AND_LISTED_REFUSED)
def test_asked_topics_listed_words_and_glued_numbers_are_refused(guard, text, kind):
    with pytest.raises(SecretRejected) as err:
        guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")
    assert kind in err.value.kinds


@pytest.mark.parametrize("text", ASKED_AND_LISTED_PASSES)
def test_quiz_answers_advice_and_booking_codes_pass(guard, text):
    assert guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")[0] == {"text": text}


def test_gift_card_codes_and_numbered_wallet_words_are_refused(guard):
    def kinds(value):
        with pytest.raises(SecretRejected) as err:
            guard.check(value, namespace=("memories", "u1"), key="mem_5e1f")
        return err.value.kinds

    assert "gift card code" in kinds({"store": "Google Play", "value": "$25.00", "code": "QH7K-YIHP-SSH6-WBTP-R7ZF"})
    assert "gift card code" in kinds({"text": "Gutscheincode (Zalando, 40 €): MJ9Z-0ZCONV-OL5H"})
    assert "gift card code" in kinds({"text": "redeem later: Apple code XZEESLHGDIJTFMRS"})
    sheet = "Ledger backup:\n" + "\n".join(
        f"{i:2d} {w}" for i, w in enumerate(
            "cable tiger air honey average armed brick aisle citizen festival kangaroo whale".split(), 1
        )
    )
    assert "recovery phrase" in kinds({"text": sheet})


def test_order_case_and_promo_codes_and_numbered_lists_pass(guard):
    for text in (
        "Amazon order code 112-4455667-1234567 arrives Friday",
        "Apple support case code: CASE-2024-88812 (battery)",
        "Gutscheincode WILLKOMMEN23 aus der Zeitungsbeilage, gilt für alle Neukunden.",
        "Packing list:\n 1 tent\n 2 stove\n 3 socks\n 4 map",
    ):
        assert guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")[0] == {"text": text}
    record = {"store": "Amazon", "order": "D01-2345678-1234567", "status": "shipped"}
    assert guard.check(record, namespace=("memories", "u1"), key="mem_5e1f")[0] == record


def test_a_device_named_as_a_heading_and_a_reminder_not_to_forget(guard):
    for text in ("voicemail: The code is 4671, don't forget it.", "SIM card: O código é 6614, não esqueça."):
        with pytest.raises(SecretRejected):
            guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")
    for text in ("Alarm: the code was changed last week", "door: the code is on the fridge, don't forget to ask"):
        assert guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")[0] == {"text": text}
