#!/usr/bin/env python3
"""Deterministic generator for train40a.jsonl (credential-detector TRAINING corpus).

Personal / conversational memories in English and 28 other languages.
Python 3.11 standard library only, no network.  One random.Random(SEED)
drives every choice, including the final shuffle, so running

    python3 make_train40a.py

rewrites train40a.jsonl byte-identically.

Design (labels hold by construction):
  * a *subject* is produced by a label-specific generator: gen_secret_* only
    ever builds credentials, gen_benign_* never sees a credential value;
  * presentation helpers (plain sentence / record fields / chat turns and the
    hard "techniques") are shared, take the subject and return a core;
  * render() applies label-neutral wrapping (prefixes, filler lines,
    object/array shapes, metadata) with the same probabilities for both labels;
  * every secret record asserts that its credential, or a recoverable encoding
    of it (checked by decoding), survives in the final value.
"""
import base64
import codecs
import hashlib
import html
import json
import os
import random
import unicodedata
import urllib.parse

SEED = 731_905_443
rng = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "train40a.jsonl")

N_SECRET_PLAIN, N_SECRET_HARD = 1000, 520
N_BENIGN_PLAIN, N_BENIGN_HARD = 1000, 520


def ch(seq):
    return seq[rng.randrange(len(seq))]


def chance(p):
    return rng.random() < p


def digits(n):
    return "".join(ch("0123456789") for _ in range(n))


# ---------------------------------------------------------------------------
# Language table.  NOUN_KEYS order matches the "nouns" strings.
# ---------------------------------------------------------------------------
NOUN_KEYS = ["pw", "wifi", "pin", "cardpin", "door", "gate", "alarm", "safe", "combo",
             "codes", "card", "user", "qpet", "qmother", "order", "tracking", "booking",
             "flight", "room", "phone", "birthday", "member", "address", "allergy",
             "medication"]

L = {}


def lang(code, **kw):
    d = dict(kw)
    nouns = d.pop("nouns").split("|")
    assert len(nouns) == len(NOUN_KEYS), (code, len(nouns))
    d["n"] = dict(zip(NOUN_KEYS, nouns))
    d["digits"] = d["digits"].split(" ")
    assert len(d["digits"]) == 10, code
    for k in ("names", "cities", "streets", "banks", "shops", "mail", "surn"):
        d[k] = d[k].split("|")
    L[code] = d


lang("en",
     nouns="password|Wi-Fi password|PIN|card PIN|door code|gate code|alarm code|safe code|lock combination|backup codes|card number|username|name of your first pet?|mother's maiden name?|order number|tracking number|booking reference|flight number|room number|phone number|birthday|membership number|address|allergy|medication",
     digits="zero one two three four five six seven eight nine",
     say=["my {x} is {v}", "the {x} is {v}", "{x} is {v} btw", "{x} for later: {v}"],
     ask=["what's the {x} again?", "hey, {x}?", "can you remind me of the {x}?"],
     ans=["it's {v}", "{v}", "{v} I think", "should be {v}"],
     pre=["note to self:", "remember:", "save this:", "fwd from Mum:", "for later —"],
     fill=["buy milk and eggs", "call Grandma on Sunday", "dentist Tuesday 9:30", "pick up the dry cleaning", "bins go out Thursday night"],
     nov=["I changed my Netflix password yesterday.", "Remind me to reset the router PIN this weekend.", "The door code is on the note on the fridge.", "Forgot my Wi-Fi password again, need to reset it.", "Mum asked for the alarm code, I'll tell her in person.", "My bank sent a new card, PIN letter still hasn't arrived.", "Need to set up 2FA on my email this week.", "Don't write the safe combination anywhere, we agreed to memorise it."],
     rev="read it backwards", join="put together, no spaces", me="me", thx="thanks!",
     names="Mum|Dad|Sam|Priya|Tom|Grace", cities="Leeds|Austin|Toronto|Cardiff", streets="Maple Avenue|Church Lane|High Street|Elm Road",
     banks="Barclays|Chase|Monzo|Wells Fargo", shops="Amazon|eBay|ASOS|Argos", mail="Gmail|Outlook|iCloud|Yahoo", surn="Whitaker|Okafor|Fitzgerald|Henderson",
     cur="£", school="school portal")
lang("de",
     nouns="Passwort|WLAN-Passwort|PIN|Karten-PIN|Türcode|Torcode|Alarmcode|Tresorcode|Schlosskombination|Backup-Codes|Kartennummer|Benutzername|Name deines ersten Haustiers?|Geburtsname der Mutter?|Bestellnummer|Sendungsnummer|Buchungsnummer|Flugnummer|Zimmernummer|Telefonnummer|Geburtstag|Mitgliedsnummer|Adresse|Allergie|Medikament",
     digits="null eins zwei drei vier fünf sechs sieben acht neun",
     say=["{x} lautet {v}", "zur Info, {x} ist {v}", "{x} ist übrigens {v}"],
     ask=["Wie war nochmal {x}?", "Kannst du mir {x} schicken?"], ans=["ist {v}", "{v}", "das war {v}"],
     pre=["Notiz an mich:", "Merken:", "Von Mama weitergeleitet:"],
     fill=["Milch kaufen", "Oma am Sonntag anrufen", "Zahnarzt Dienstag 9:30", "Altpapier rausstellen"],
     nov=["Hab gestern mein Netflix-Passwort geändert.", "Erinner mich daran, die Router-PIN zurückzusetzen.", "Der Türcode steht auf dem Zettel am Kühlschrank.", "Das WLAN-Passwort muss ich mal neu setzen."],
     rev="rückwärts lesen", join="zusammengeschrieben", me="ich", thx="danke!",
     names="Mama|Papa|Jonas|Lena", cities="Köln|Leipzig|Freiburg", streets="Lindenstraße|Hauptstraße|Am Markt",
     banks="Sparkasse|DKB|Commerzbank", shops="Zalando|Otto|MediaMarkt", mail="GMX|web.de|Gmail", surn="Hoffmann|Brandt|Schäfer", cur="€", school="WebUntis")
lang("fr",
     nouns="mot de passe|mot de passe Wi-Fi|code PIN|code de la carte bancaire|digicode|code du portail|code de l'alarme|code du coffre|combinaison du cadenas|codes de secours|numéro de carte|identifiant|nom de votre premier animal ?|nom de jeune fille de votre mère ?|numéro de commande|numéro de suivi|référence de réservation|numéro de vol|numéro de chambre|numéro de téléphone|anniversaire|numéro d'adhérent|adresse|allergie|médicament",
     digits="zéro un deux trois quatre cinq six sept huit neuf",
     say=["pour info, {x} = {v}", "{x}, c'est {v}", "{x} : {v}, ne l'oublie pas"],
     ask=["C'est quoi déjà, {x} ?", "Tu peux me redonner {x} ?"], ans=["c'est {v}", "{v}", "normalement {v}"],
     pre=["Note pour moi :", "À retenir :", "Transféré de maman :"],
     fill=["acheter du pain", "appeler mamie dimanche", "dentiste mardi 9h30", "sortir les poubelles"],
     nov=["J'ai changé mon mot de passe Netflix hier.", "Rappelle-moi de réinitialiser le code PIN du routeur.", "Le digicode est sur le post-it du frigo.", "Il faut que je change le mot de passe Wi-Fi."],
     rev="à lire à l'envers", join="le tout attaché", me="moi", thx="merci !",
     names="Maman|Papa|Camille|Hugo", cities="Lyon|Nantes|Lille", streets="rue des Lilas|avenue Victor Hugo|boulevard Voltaire",
     banks="Crédit Agricole|BNP Paribas|Boursorama", shops="Cdiscount|Fnac|Vinted", mail="Orange|Gmail|Free", surn="Moreau|Lefèvre|Girard", cur="€", school="Pronote")
lang("es",
     nouns="contraseña|contraseña del wifi|PIN|PIN de la tarjeta|código de la puerta|código del portón|código de la alarma|código de la caja fuerte|combinación del candado|códigos de respaldo|número de tarjeta|usuario|¿nombre de tu primera mascota?|¿apellido de soltera de tu madre?|número de pedido|número de seguimiento|localizador de la reserva|número de vuelo|número de habitación|teléfono|cumpleaños|número de socio|dirección|alergia|medicamento",
     digits="cero uno dos tres cuatro cinco seis siete ocho nueve",
     say=["{x} es {v}", "apunta: {x} {v}", "te paso {x}: {v}"],
     ask=["¿Cuál era {x}?", "Oye, ¿me pasas {x}?"], ans=["es {v}", "{v}", "creo que {v}"],
     pre=["Nota para mí:", "Para recordar:", "Reenviado de mamá:"],
     fill=["comprar leche", "llamar a la abuela el domingo", "dentista el martes a las 9:30", "sacar la basura"],
     nov=["Ayer cambié la contraseña de Netflix.", "Recuérdame restablecer el PIN del router.", "El código de la puerta está en la nota de la nevera.", "Tengo que cambiar la contraseña del wifi."],
     rev="al revés", join="todo junto", me="yo", thx="¡gracias!",
     names="Mamá|Papá|Lucía|Diego", cities="Sevilla|Valencia|Zaragoza", streets="Calle Mayor|Avenida de la Paz|Calle del Sol",
     banks="BBVA|Santander|CaixaBank", shops="El Corte Inglés|Amazon.es|PcComponentes", mail="Gmail|Hotmail|Outlook", surn="García|Fernández|Ruiz", cur="€", school="Raíces")
lang("it",
     nouns="password|password del Wi-Fi|PIN|PIN del bancomat|codice del portone|codice del cancello|codice dell'allarme|codice della cassaforte|combinazione del lucchetto|codici di backup|numero della carta|nome utente|nome del tuo primo animale?|cognome da nubile di tua madre?|numero d'ordine|numero di tracking|codice prenotazione|numero del volo|numero di camera|numero di telefono|compleanno|numero tessera|indirizzo|allergia|farmaco",
     digits="zero uno due tre quattro cinque sei sette otto nove",
     say=["{x} è {v}", "segnati: {x} {v}", "ti giro {x}: {v}"],
     ask=["Qual era {x}?", "Mi ricordi {x}?"], ans=["è {v}", "{v}", "dovrebbe essere {v}"],
     pre=["Nota per me:", "Da ricordare:", "Inoltrato da mamma:"],
     fill=["comprare il latte", "chiamare la nonna domenica", "dentista martedì alle 9:30", "portare fuori la differenziata"],
     nov=["Ieri ho cambiato la password di Netflix.", "Ricordami di reimpostare il PIN del router.", "Il codice del portone è sul foglietto attaccato al frigo.", "Devo cambiare la password del Wi-Fi."],
     rev="da leggere al contrario", join="tutto attaccato", me="io", thx="grazie!",
     names="Mamma|Papà|Giulia|Marco", cities="Torino|Bologna|Bari", streets="Via Roma|Via Garibaldi|Corso Italia",
     banks="Intesa Sanpaolo|UniCredit|Fineco", shops="Amazon.it|Zalando|Unieuro", mail="Libero|Gmail|Virgilio", surn="Rossi|Bianchi|Esposito", cur="€", school="ClasseViva")
lang("pt",
     nouns="senha|senha do Wi-Fi|PIN|PIN do cartão|código da porta|código do portão|código do alarme|código do cofre|combinação do cadeado|códigos de backup|número do cartão|usuário|nome do seu primeiro animal?|nome de solteira da sua mãe?|número do pedido|código de rastreio|código da reserva|número do voo|número do quarto|telefone|aniversário|número de sócio|endereço|alergia|remédio",
     digits="zero um dois três quatro cinco seis sete oito nove",
     say=["{x} é {v}", "anota aí: {x} {v}", "segue {x}: {v}"],
     ask=["Qual é {x} mesmo?", "Me manda {x}?"], ans=["é {v}", "{v}", "acho que é {v}"],
     pre=["Nota pra mim:", "Lembrar:", "Encaminhado da mãe:"],
     fill=["comprar pão", "ligar pra vó no domingo", "dentista na terça às 9h30", "pagar a conta de luz"],
     nov=["Mudei a senha da Netflix ontem.", "Me lembra de redefinir o PIN do roteador.", "O código da porta está no bilhete da geladeira.", "Preciso trocar a senha do Wi-Fi."],
     rev="de trás pra frente", join="tudo junto", me="eu", thx="valeu!",
     names="Mãe|Pai|Ana|João", cities="Porto|Campinas|Recife", streets="Rua das Flores|Avenida Paulista|Rua Augusta",
     banks="Itaú|Nubank|Millennium BCP", shops="Mercado Livre|Magalu|Shopee", mail="Gmail|Hotmail|Sapo", surn="Silva|Oliveira|Costa", cur="R$", school="portal da escola")
lang("nl",
     nouns="wachtwoord|wifi-wachtwoord|pincode|pincode van de bankpas|deurcode|poortcode|alarmcode|kluiscode|slotcombinatie|back-upcodes|kaartnummer|gebruikersnaam|naam van je eerste huisdier?|meisjesnaam van je moeder?|bestelnummer|trackingnummer|boekingsnummer|vluchtnummer|kamernummer|telefoonnummer|verjaardag|lidnummer|adres|allergie|medicijn",
     digits="nul een twee drie vier vijf zes zeven acht negen",
     say=["{x} is {v}", "even noteren: {x} {v}", "{x} = {v} hè"],
     ask=["Wat was {x} ook alweer?", "Kun je me {x} sturen?"], ans=["is {v}", "{v}", "volgens mij {v}"],
     pre=["Notitie voor mezelf:", "Onthouden:", "Doorgestuurd van mama:"],
     fill=["melk kopen", "oma zondag bellen", "tandarts dinsdag 9:30", "container aan de weg zetten"],
     nov=["Gisteren mijn Netflix-wachtwoord veranderd.", "Herinner me eraan de pincode van de router te resetten.", "De deurcode staat op het briefje op de koelkast.", "Ik moet het wifi-wachtwoord nog wijzigen."],
     rev="achterstevoren lezen", join="aan elkaar", me="ik", thx="dank je!",
     names="Mama|Papa|Sanne|Daan", cities="Utrecht|Groningen|Eindhoven", streets="Dorpsstraat|Kerkweg|Molenlaan",
     banks="ING|Rabobank|ABN AMRO", shops="bol.com|Coolblue|Albert Heijn", mail="Gmail|Ziggo|KPN Mail", surn="de Vries|Jansen|Bakker", cur="€", school="Magister")
lang("sv",
     nouns="lösenord|wifi-lösenord|PIN-kod|kortets PIN-kod|portkod|grindkod|larmkod|kassaskåpskod|låskombination|reservkoder|kortnummer|användarnamn|namnet på ditt första husdjur?|din mammas flicknamn?|ordernummer|spårningsnummer|bokningsnummer|flightnummer|rumsnummer|telefonnummer|födelsedag|medlemsnummer|adress|allergi|medicin",
     digits="noll ett två tre fyra fem sex sju åtta nio",
     say=["{x} är {v}", "kom ihåg: {x} {v}", "{x}: {v} (spara)"],
     ask=["Vad var {x} nu igen?", "Kan du skicka {x}?"], ans=["det är {v}", "{v}", "tror det är {v}"],
     pre=["Anteckning till mig själv:", "Kom ihåg:", "Vidarebefordrat från mamma:"],
     fill=["köpa mjölk", "ringa mormor på söndag", "tandläkaren tisdag 9.30", "ställa ut soporna"],
     nov=["Bytte mitt Netflix-lösenord igår.", "Påminn mig att återställa routerns PIN-kod.", "Portkoden står på lappen på kylskåpet.", "Måste byta wifi-lösenordet."],
     rev="läs baklänges", join="ihopskrivet", me="jag", thx="tack!",
     names="Mamma|Pappa|Elsa|Oskar", cities="Uppsala|Malmö|Umeå", streets="Storgatan|Kungsvägen|Skolgatan",
     banks="Swedbank|SEB|Handelsbanken", shops="CDON|Elgiganten|Apotea", mail="Gmail|Outlook|Telia", surn="Lindqvist|Andersson|Berg", cur="kr", school="SchoolSoft")
lang("pl",
     nouns="hasło|hasło do wifi|PIN|PIN do karty|kod do drzwi|kod do bramy|kod alarmu|kod do sejfu|szyfr do kłódki|kody zapasowe|numer karty|login|imię pierwszego zwierzaka?|nazwisko panieńskie matki?|numer zamówienia|numer przesyłki|numer rezerwacji|numer lotu|numer pokoju|numer telefonu|urodziny|numer członkowski|adres|alergia|lek",
     digits="zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",
     say=["{x} to {v}", "zapisz: {x} {v}", "{x}: {v}, nie zgub"],
     ask=["Przypomnisz mi: {x}?", "Podeślesz mi {x}?"], ans=["to {v}", "{v}", "chyba {v}"],
     pre=["Notatka dla siebie:", "Zapamiętaj:", "Przekazane od mamy:"],
     fill=["kupić mleko", "zadzwonić do babci w niedzielę", "dentysta we wtorek 9:30", "wystawić śmieci"],
     nov=["Wczoraj zmieniłem hasło do Netflixa.", "Przypomnij mi, żeby zresetować PIN do routera.", "Kod do drzwi jest na karteczce na lodówce.", "Muszę zmienić hasło do wifi."],
     rev="czytać od tyłu", join="razem, bez spacji", me="ja", thx="dzięki!",
     names="Mama|Tata|Kasia|Bartek", cities="Kraków|Gdańsk|Wrocław", streets="ul. Lipowa|ul. Mickiewicza|ul. Polna",
     banks="PKO BP|mBank|Pekao", shops="Allegro|Empik|x-kom", mail="Onet|WP|Gmail", surn="Kowalska|Nowak|Wiśniewska", cur="zł", school="Librus")
lang("cs",
     nouns="heslo|heslo k wifi|PIN|PIN ke kartě|kód ke dveřím|kód k bráně|kód alarmu|kód k trezoru|kombinace zámku|záložní kódy|číslo karty|uživatelské jméno|jméno vašeho prvního mazlíčka?|rodné příjmení matky?|číslo objednávky|sledovací číslo|číslo rezervace|číslo letu|číslo pokoje|telefonní číslo|narozeniny|členské číslo|adresa|alergie|lék",
     digits="nula jedna dva tři čtyři pět šest sedm osm devět",
     say=["{x} je {v}", "poznamenej si: {x} {v}", "{x}: {v}"],
     ask=["Pošli mi prosím {x}?", "Jak to bylo: {x}?"], ans=["je to {v}", "{v}", "myslím {v}"],
     pre=["Poznámka pro sebe:", "Zapamatovat:", "Přeposláno od mámy:"],
     fill=["koupit mléko", "zavolat babičce v neděli", "zubař v úterý v 9:30", "vynést tříděný odpad"],
     nov=["Včera jsem si změnil heslo na Netflix.", "Připomeň mi, ať resetuju PIN od routeru.", "Kód ke dveřím je na lístečku na lednici.", "Musím změnit heslo k wifi."],
     rev="číst pozpátku", join="dohromady bez mezer", me="já", thx="díky!",
     names="Máma|Táta|Tereza|Jakub", cities="Brno|Olomouc|Plzeň", streets="Nádražní|Husova|Palackého",
     banks="Česká spořitelna|Fio banka|ČSOB", shops="Alza|Mall.cz|Rohlik", mail="Seznam|Gmail|Centrum", surn="Novák|Dvořáková|Svoboda", cur="Kč", school="Bakaláři")
lang("ru",
     nouns="пароль|пароль от вайфая|ПИН|ПИН-код карты|код от двери|код от ворот|код сигнализации|код сейфа|код от замка|резервные коды|номер карты|логин|кличка первого питомца?|девичья фамилия матери?|номер заказа|трек-номер|номер брони|номер рейса|номер комнаты|номер телефона|день рождения|номер клубной карты|адрес|аллергия|лекарство",
     digits="ноль один два три четыре пять шесть семь восемь девять",
     say=["{x} — {v}", "запомни: {x} {v}", "{x}: {v}, не теряй"],
     ask=["Напомни, {x}?", "Скинь {x}, пожалуйста"], ans=["{v}", "это {v}", "вроде {v}"],
     pre=["Заметка себе:", "Запомнить:", "Переслано от мамы:"],
     fill=["купить молоко", "позвонить бабушке в воскресенье", "стоматолог во вторник в 9:30", "вынести мусор"],
     nov=["Вчера поменял пароль от Netflix.", "Напомни сбросить ПИН на роутере.", "Код от двери на бумажке на холодильнике.", "Надо сменить пароль от вайфая."],
     rev="читать задом наперёд", join="всё вместе без пробелов", me="я", thx="спасибо!",
     names="Мама|Папа|Лена|Дима", cities="Казань|Самара|Томск", streets="ул. Ленина|ул. Садовая|пр. Мира",
     banks="Сбербанк|Тинькофф|ВТБ", shops="Ozon|Wildberries|Яндекс Маркет", mail="Яндекс Почта|Mail.ru|Gmail", surn="Петрова|Смирнова|Кузнецов", cur="₽", school="Дневник.ру")
lang("uk",
     nouns="пароль|пароль від вайфаю|ПІН|ПІН-код картки|код від дверей|код від воріт|код сигналізації|код сейфа|код від замка|резервні коди|номер картки|логін|кличка першого улюбленця?|дівоче прізвище матері?|номер замовлення|номер відправлення|номер бронювання|номер рейсу|номер кімнати|номер телефону|день народження|номер членського квитка|адреса|алергія|ліки",
     digits="нуль один два три чотири п'ять шість сім вісім дев'ять",
     say=["{x} — {v}", "запам'ятай: {x} {v}", "{x}: {v}"],
     ask=["Нагадай, {x}?", "Скинь {x}, будь ласка"], ans=["{v}", "це {v}", "здається, {v}"],
     pre=["Нотатка собі:", "Запам'ятати:", "Переслано від мами:"],
     fill=["купити молоко", "подзвонити бабусі в неділю", "стоматолог у вівторок о 9:30", "винести сміття"],
     nov=["Учора змінив пароль від Netflix.", "Нагадай скинути ПІН на роутері.", "Код від дверей на папірці на холодильнику.", "Треба змінити пароль від вайфаю."],
     rev="читати задом наперед", join="разом без пробілів", me="я", thx="дякую!",
     names="Мама|Тато|Оксана|Андрій", cities="Львів|Одеса|Харків", streets="вул. Шевченка|вул. Франка|просп. Свободи",
     banks="ПриватБанк|monobank|Ощадбанк", shops="Rozetka|Prom|Епіцентр", mail="Ukr.net|Gmail|i.ua", surn="Коваленко|Шевчук|Бондаренко", cur="₴", school="Мій клас")
lang("el",
     nouns="κωδικός|κωδικός του Wi-Fi|PIN|PIN της κάρτας|κωδικός της πόρτας|κωδικός της αυλόπορτας|κωδικός του συναγερμού|κωδικός του χρηματοκιβωτίου|συνδυασμός της κλειδαριάς|εφεδρικοί κωδικοί|αριθμός κάρτας|όνομα χρήστη|όνομα του πρώτου σας κατοικίδιου;|πατρικό επώνυμο της μητέρας σας;|αριθμός παραγγελίας|αριθμός αποστολής|κωδικός κράτησης|αριθμός πτήσης|αριθμός δωματίου|τηλέφωνο|γενέθλια|αριθμός μέλους|διεύθυνση|αλλεργία|φάρμακο",
     digits="μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα",
     say=["{x}: {v}", "σημείωσε: {x} {v}", "{x} είναι {v}"],
     ask=["Μου θυμίζεις: {x};", "Στείλε μου {x};"], ans=["είναι {v}", "{v}", "νομίζω {v}"],
     pre=["Σημείωση για μένα:", "Να θυμάμαι:", "Προώθηση από μαμά:"],
     fill=["να πάρω γάλα", "να πάρω τη γιαγιά την Κυριακή", "οδοντίατρος Τρίτη 9:30", "να βγάλω τα σκουπίδια"],
     nov=["Άλλαξα χθες τον κωδικό του Netflix.", "Θύμισέ μου να κάνω reset το PIN του router.", "Ο κωδικός της πόρτας είναι στο χαρτάκι στο ψυγείο.", "Πρέπει να αλλάξω τον κωδικό του Wi-Fi."],
     rev="διάβασέ το ανάποδα", join="όλα μαζί", me="εγώ", thx="ευχαριστώ!",
     names="Μαμά|Μπαμπάς|Ελένη|Νίκος", cities="Θεσσαλονίκη|Πάτρα|Ηράκλειο", streets="οδός Ερμού|οδός Πατησίων|οδός Αθηνάς",
     banks="Πειραιώς|Εθνική|Eurobank", shops="Skroutz|Public|Κωτσόβολος", mail="Gmail|Yahoo|Otenet", surn="Παπαδοπούλου|Γεωργίου|Νικολάου", cur="€", school="school portal")
lang("ro",
     nouns="parola|parola de la Wi-Fi|PIN|PIN-ul cardului|codul de la ușă|codul de la poartă|codul alarmei|codul seifului|cifrul lacătului|coduri de rezervă|numărul cardului|utilizator|numele primului animal de companie?|numele de fată al mamei?|numărul comenzii|numărul AWB|codul rezervării|numărul zborului|numărul camerei|numărul de telefon|ziua de naștere|numărul de membru|adresa|alergie|medicament",
     digits="zero unu doi trei patru cinci șase șapte opt nouă",
     say=["{x} este {v}", "notează: {x} {v}", "{x}: {v}"],
     ask=["Îmi amintești: {x}?", "Îmi trimiți {x}?"], ans=["e {v}", "{v}", "cred că {v}"],
     pre=["Notă pentru mine:", "De reținut:", "Redirecționat de la mama:"],
     fill=["de cumpărat lapte", "s-o sun pe bunica duminică", "dentist marți la 9:30", "de scos gunoiul"],
     nov=["Ieri mi-am schimbat parola de la Netflix.", "Amintește-mi să resetez PIN-ul routerului.", "Codul de la ușă e pe bilețelul de pe frigider.", "Trebuie să schimb parola de la Wi-Fi."],
     rev="citește invers", join="totul legat", me="eu", thx="mersi!",
     names="Mama|Tata|Ioana|Andrei", cities="Cluj-Napoca|Iași|Timișoara", streets="Strada Florilor|Bulevardul Unirii|Strada Mihai Eminescu",
     banks="BCR|Banca Transilvania|ING Romania", shops="eMAG|Altex|Fashion Days", mail="Yahoo|Gmail|Outlook", surn="Popescu|Ionescu|Dumitru", cur="lei", school="school portal")
lang("hu",
     nouns="jelszó|wifi jelszó|PIN|kártya PIN-kódja|ajtókód|kapukód|riasztókód|széfkód|lakat kombinációja|tartalékkódok|kártyaszám|felhasználónév|első háziállatod neve?|édesanyád leánykori neve?|rendelésszám|nyomkövetési szám|foglalási szám|járatszám|szobaszám|telefonszám|születésnap|tagsági szám|cím|allergia|gyógyszer",
     digits="nulla egy kettő három négy öt hat hét nyolc kilenc",
     say=["{x}: {v}", "jegyezd meg: {x} {v}", "{x} = {v}"],
     ask=["Mi is volt: {x}?", "Elküldöd: {x}?"], ans=["{v} az", "{v}", "szerintem {v}"],
     pre=["Jegyzet magamnak:", "Megjegyezni:", "Anyától továbbítva:"],
     fill=["tejet venni", "vasárnap felhívni a nagyit", "fogorvos kedden 9:30", "kivinni a szemetet"],
     nov=["Tegnap megváltoztattam a Netflix jelszavamat.", "Emlékeztess, hogy visszaállítsam a router PIN-jét.", "Az ajtókód a hűtőn lévő cetlin van.", "Meg kell változtatnom a wifi jelszót."],
     rev="visszafelé olvasva", join="egybeírva", me="én", thx="köszi!",
     names="Anya|Apa|Eszter|Bence", cities="Debrecen|Szeged|Pécs", streets="Petőfi utca|Kossuth tér|Rákóczi út",
     banks="OTP|K&H|Erste", shops="eMAG|Alza|Pepita", mail="Freemail|Gmail|Citromail", surn="Nagy|Kovács|Szabó", cur="Ft", school="KRÉTA")
lang("tr",
     nouns="şifre|Wi-Fi şifresi|PIN|kart şifresi|kapı kodu|bahçe kapısı kodu|alarm kodu|kasa şifresi|kilit şifresi|yedek kodlar|kart numarası|kullanıcı adı|ilk evcil hayvanınızın adı?|annenizin kızlık soyadı?|sipariş numarası|kargo takip numarası|rezervasyon kodu|uçuş numarası|oda numarası|telefon numarası|doğum günü|üyelik numarası|adres|alerji|ilaç",
     digits="sıfır bir iki üç dört beş altı yedi sekiz dokuz",
     say=["{x}: {v}", "not al: {x} {v}", "{x} {v}, unutma"],
     ask=["{x} neydi?", "{x} atar mısın?"], ans=["{v}", "{v} idi", "galiba {v}"],
     pre=["Kendime not:", "Unutma:", "Annemden iletildi:"],
     fill=["süt al", "pazar günü anneanneyi ara", "salı 9:30 dişçi", "çöpü çıkar"],
     nov=["Dün Netflix şifremi değiştirdim.", "Modemin PIN'ini sıfırlamayı hatırlat.", "Kapı kodu buzdolabındaki notta yazıyor.", "Wi-Fi şifresini değiştirmem lazım."],
     rev="tersten oku", join="hepsi bitişik", me="ben", thx="teşekkürler!",
     names="Annem|Babam|Elif|Emre", cities="İzmir|Bursa|Eskişehir", streets="Atatürk Caddesi|Çiçek Sokak|Cumhuriyet Bulvarı",
     banks="Ziraat|Garanti BBVA|İş Bankası", shops="Trendyol|Hepsiburada|Getir", mail="Gmail|Yandex|Hotmail", surn="Yılmaz|Demir|Kaya", cur="₺", school="e-Okul")
lang("ar",
     nouns="كلمة المرور|كلمة سر الواي فاي|الرقم السري|الرقم السري للبطاقة|رمز الباب|رمز البوابة|رمز الإنذار|رمز الخزنة|رمز القفل|رموز الاحتياط|رقم البطاقة|اسم المستخدم|اسم أول حيوان أليف لديك؟|اسم عائلة والدتك قبل الزواج؟|رقم الطلب|رقم التتبع|رقم الحجز|رقم الرحلة|رقم الغرفة|رقم الهاتف|تاريخ الميلاد|رقم العضوية|العنوان|حساسية|الدواء",
     digits="صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة",
     say=["{x} هو {v}", "تذكر: {x} {v}", "{x}: {v}"],
     ask=["ما هو {x}؟", "أرسل لي {x} من فضلك"], ans=["{v}", "إنه {v}", "أظن {v}"],
     pre=["ملاحظة لنفسي:", "للتذكير:", "محوّلة من أمي:"],
     fill=["شراء الحليب", "الاتصال بجدتي يوم الجمعة", "موعد طبيب الأسنان الثلاثاء 9:30", "إخراج القمامة"],
     nov=["غيرت كلمة مرور نتفليكس أمس.", "ذكرني بإعادة تعيين الرقم السري للراوتر.", "رمز الباب مكتوب على الورقة على الثلاجة.", "لازم أغير كلمة سر الواي فاي."],
     rev="اقرأه بالعكس", join="كلها متصلة", me="أنا", thx="شكراً!",
     names="ماما|بابا|سارة|أحمد", cities="الرياض|عمّان|الدار البيضاء", streets="شارع الملك فهد|شارع الجامعة|شارع الحمراء",
     banks="الراجحي|البنك الأهلي|بنك الإسكان", shops="Noon|Amazon.sa|جرير", mail="Gmail|Hotmail|Yahoo", surn="حداد|العلي|منصور", cur="ر.س", school="منصة مدرستي")
lang("he",
     nouns="סיסמה|סיסמת הוויי־פיי|קוד PIN|קוד הכרטיס|קוד הדלת|קוד השער|קוד האזעקה|קוד הכספת|צירוף המנעול|קודי גיבוי|מספר הכרטיס|שם משתמש|שם חיית המחמד הראשונה שלך?|שם הנעורים של אמך?|מספר הזמנה|מספר מעקב|מספר אסמכתא|מספר טיסה|מספר חדר|מספר טלפון|יום הולדת|מספר חבר|כתובת|אלרגיה|תרופה",
     digits="אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע",
     say=["{x}: {v}", "תזכור: {x} {v}", "{x} זה {v}"],
     ask=["מה {x}?", "תשלח לי {x}?"], ans=["{v}", "זה {v}", "נראה לי {v}"],
     pre=["הערה לעצמי:", "לזכור:", "הועבר מאמא:"],
     fill=["לקנות חלב", "להתקשר לסבתא ביום שישי", "רופא שיניים ביום שלישי 9:30", "להוציא את הזבל"],
     nov=["החלפתי אתמול את הסיסמה של נטפליקס.", "תזכיר לי לאפס את הקוד של הראוטר.", "קוד הדלת כתוב על הפתק במקרר.", "צריך להחליף את סיסמת הוויי־פיי."],
     rev="לקרוא הפוך", join="הכל ביחד", me="אני", thx="תודה!",
     names="אמא|אבא|נועה|איתי", cities="חיפה|תל אביב|באר שבע", streets="רחוב הרצל|שדרות רוטשילד|רחוב הגפן",
     banks="לאומי|הפועלים|דיסקונט", shops="KSP|שופרסל|Ivory", mail="Gmail|Walla|Outlook", surn="לוי|כהן|מזרחי", cur="₪", school="משו\"ב")
lang("fa",
     nouns="رمز عبور|رمز وای‌فای|پین|رمز اول کارت|رمز در|رمز درب پارکینگ|رمز دزدگیر|رمز گاوصندوق|رمز قفل|کدهای پشتیبان|شماره کارت|نام کاربری|نام اولین حیوان خانگی شما؟|نام خانوادگی مادر شما؟|شماره سفارش|کد رهگیری|کد رزرو|شماره پرواز|شماره اتاق|شماره تلفن|تولد|شماره عضویت|آدرس|حساسیت|دارو",
     digits="صفر یک دو سه چهار پنج شش هفت هشت نه",
     say=["{x}: {v}", "یادت باشه: {x} {v}", "{x} {v} است"],
     ask=["{x} چی بود؟", "{x} رو برام بفرست"], ans=["{v}", "{v} هست", "فکر کنم {v}"],
     pre=["یادداشت برای خودم:", "یادم باشه:", "از طرف مامان:"],
     fill=["شیر بخرم", "جمعه به مامان‌بزرگ زنگ بزنم", "دندانپزشکی سه‌شنبه ۹:۳۰", "زباله‌ها رو ببرم بیرون"],
     nov=["دیروز رمز نتفلیکسم رو عوض کردم.", "یادم بنداز رمز مودم رو ریست کنم.", "رمز در روی کاغذ روی یخچاله.", "باید رمز وای‌فای رو عوض کنم."],
     rev="برعکس بخون", join="همه به هم چسبیده", me="من", thx="مرسی!",
     names="مامان|بابا|مریم|علی", cities="تهران|شیراز|اصفهان", streets="خیابان ولیعصر|کوچه بهار|بلوار کشاورز",
     banks="ملت|ملی|سامان", shops="Digikala|اسنپ‌مارکت|باسلام", mail="Gmail|Yahoo|Chmail", surn="رحیمی|احمدی|کریمی", cur="تومان", school="سامانه شاد")
lang("hi",
     nouns="पासवर्ड|वाई-फाई पासवर्ड|पिन|एटीएम पिन|दरवाज़े का कोड|गेट का कोड|अलार्म कोड|तिजोरी का कोड|ताले का कॉम्बिनेशन|बैकअप कोड|कार्ड नंबर|यूज़रनेम|आपके पहले पालतू जानवर का नाम?|आपकी माँ का मायके का उपनाम?|ऑर्डर नंबर|ट्रैकिंग नंबर|बुकिंग रेफ़रेंस|फ़्लाइट नंबर|कमरा नंबर|फ़ोन नंबर|जन्मदिन|सदस्यता संख्या|पता|एलर्जी|दवा",
     digits="शून्य एक दो तीन चार पाँच छह सात आठ नौ",
     say=["{x}: {v}", "याद रखना: {x} {v}", "{x} है {v}"],
     ask=["{x} क्या था?", "ज़रा {x} भेजना"], ans=["{v}", "{v} है", "शायद {v}"],
     pre=["अपने लिए नोट:", "याद रखना:", "मम्मी से फ़ॉरवर्ड:"],
     fill=["दूध लाना है", "रविवार को दादी को फ़ोन करना", "मंगलवार 9:30 डेंटिस्ट", "कूड़ा बाहर रखना"],
     nov=["कल मैंने Netflix का पासवर्ड बदल दिया।", "मुझे राउटर का पिन रीसेट करने की याद दिलाना।", "दरवाज़े का कोड फ्रिज पर लगी पर्ची पर लिखा है।", "वाई-फाई पासवर्ड बदलना है।"],
     rev="उल्टा पढ़ना", join="सब एक साथ", me="मैं", thx="धन्यवाद!",
     names="मम्मी|पापा|प्रिया|राहुल", cities="पुणे|जयपुर|लखनऊ", streets="एमजी रोड|गांधी मार्ग|नेहरू नगर",
     banks="SBI|HDFC|ICICI", shops="Flipkart|Myntra|BigBasket", mail="Gmail|Rediffmail|Outlook", surn="शर्मा|वर्मा|गुप्ता", cur="₹", school="स्कूल पोर्टल")
lang("bn",
     nouns="পাসওয়ার্ড|ওয়াই-ফাই পাসওয়ার্ড|পিন|কার্ডের পিন|দরজার কোড|গেটের কোড|অ্যালার্মের কোড|সিন্দুকের কোড|তালার কম্বিনেশন|ব্যাকআপ কোড|কার্ড নম্বর|ইউজারনেম|আপনার প্রথম পোষা প্রাণীর নাম?|আপনার মায়ের বিয়ের আগের পদবি?|অর্ডার নম্বর|ট্র্যাকিং নম্বর|বুকিং রেফারেন্স|ফ্লাইট নম্বর|রুম নম্বর|ফোন নম্বর|জন্মদিন|সদস্য নম্বর|ঠিকানা|অ্যালার্জি|ওষুধ",
     digits="শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়",
     say=["{x}: {v}", "মনে রেখো: {x} {v}", "{x} হলো {v}"],
     ask=["{x} কী ছিল?", "{x} টা পাঠাও তো"], ans=["{v}", "{v} ছিল", "মনে হয় {v}"],
     pre=["নিজের জন্য নোট:", "মনে রাখতে হবে:", "মায়ের কাছ থেকে ফরোয়ার্ড:"],
     fill=["দুধ কিনতে হবে", "শুক্রবার দাদিকে ফোন করতে হবে", "মঙ্গলবার ৯:৩০ ডেন্টিস্ট", "ময়লা বাইরে রাখতে হবে"],
     nov=["গতকাল Netflix-এর পাসওয়ার্ড বদলেছি।", "রাউটারের পিন রিসেট করার কথা মনে করিয়ে দিও।", "দরজার কোড ফ্রিজের কাগজে লেখা আছে।", "ওয়াই-ফাই পাসওয়ার্ডটা বদলাতে হবে।"],
     rev="উল্টো করে পড়ো", join="সব একসাথে", me="আমি", thx="ধন্যবাদ!",
     names="মা|বাবা|রিয়া|অর্ণব", cities="ঢাকা|কলকাতা|চট্টগ্রাম", streets="রবীন্দ্র সরণি|লেক রোড|মিরপুর রোড",
     banks="bKash|ডাচ-বাংলা ব্যাংক|ব্র্যাক ব্যাংক", shops="Daraz|Chaldal|Rokomari", mail="Gmail|Yahoo|Outlook", surn="চৌধুরী|রহমান|দাস", cur="৳", school="স্কুল পোর্টাল")
lang("ta",
     nouns="கடவுச்சொல்|வைஃபை கடவுச்சொல்|பின்|ஏடிஎம் பின்|கதவு குறியீடு|கேட் குறியீடு|அலாரம் குறியீடு|பெட்டக குறியீடு|பூட்டு எண் சேர்க்கை|காப்புக் குறியீடுகள்|கார்டு எண்|பயனர் பெயர்|உங்கள் முதல் செல்லப்பிராணியின் பெயர்?|உங்கள் தாயின் திருமணத்திற்கு முந்தைய குடும்பப் பெயர்?|ஆர்டர் எண்|டிராக்கிங் எண்|முன்பதிவு எண்|விமான எண்|அறை எண்|தொலைபேசி எண்|பிறந்தநாள்|உறுப்பினர் எண்|முகவரி|ஒவ்வாமை|மருந்து",
     digits="பூஜ்ஜியம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது",
     say=["{x}: {v}", "நினைவில் வை: {x} {v}", "{x} {v} தான்"],
     ask=["{x} என்ன?", "{x} அனுப்பு"], ans=["{v}", "{v} தான்", "{v} என்று நினைக்கிறேன்"],
     pre=["எனக்கான குறிப்பு:", "நினைவில் கொள்:", "அம்மாவிடமிருந்து:"],
     fill=["பால் வாங்க வேண்டும்", "ஞாயிறு பாட்டிக்கு அழைக்க வேண்டும்", "செவ்வாய் 9:30 பல் மருத்துவர்", "குப்பையை வெளியே வைக்க வேண்டும்"],
     nov=["நேற்று Netflix கடவுச்சொல்லை மாற்றினேன்.", "ரூட்டர் பின்னை மீட்டமைக்க நினைவூட்டு.", "கதவு குறியீடு ஃப்ரிட்ஜ் மேல் உள்ள காகிதத்தில் உள்ளது.", "வைஃபை கடவுச்சொல்லை மாற்ற வேண்டும்."],
     rev="தலைகீழாகப் படி", join="எல்லாம் சேர்த்து", me="நான்", thx="நன்றி!",
     names="அம்மா|அப்பா|கவியா|அருண்", cities="சென்னை|மதுரை|கோவை", streets="அண்ணா சாலை|காந்தி தெரு|நேரு நகர்",
     banks="SBI|Indian Bank|IOB", shops="Flipkart|Swiggy|Amazon.in", mail="Gmail|Yahoo|Outlook", surn="சுப்பிரமணியன்|ராஜேந்திரன்|முருகன்", cur="₹", school="school portal")
lang("th",
     nouns="รหัสผ่าน|รหัสไวไฟ|รหัส PIN|รหัสบัตร ATM|รหัสประตู|รหัสประตูรั้ว|รหัสสัญญาณกันขโมย|รหัสตู้เซฟ|รหัสกุญแจ|รหัสสำรอง|เลขบัตร|ชื่อผู้ใช้|ชื่อสัตว์เลี้ยงตัวแรกของคุณ?|นามสกุลเดิมของแม่?|เลขคำสั่งซื้อ|เลขพัสดุ|รหัสการจอง|เที่ยวบิน|เลขห้อง|เบอร์โทร|วันเกิด|เลขสมาชิก|ที่อยู่|แพ้|ยา",
     digits="ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า",
     say=["{x} คือ {v}", "จดไว้: {x} {v}", "{x}: {v}"],
     ask=["{x}อะไรนะ", "ส่ง{x}มาหน่อย"], ans=["{v}", "{v} นะ", "น่าจะ {v}"],
     pre=["โน้ตถึงตัวเอง:", "อย่าลืม:", "ส่งต่อจากแม่:"],
     fill=["ซื้อนม", "โทรหายายวันอาทิตย์", "หมอฟันวันอังคาร 9:30", "เอาขยะไปทิ้ง"],
     nov=["เมื่อวานเปลี่ยนรหัสผ่าน Netflix แล้ว", "เตือนให้รีเซ็ตรหัสเราเตอร์ด้วย", "รหัสประตูอยู่ในโน้ตที่ติดตู้เย็น", "ต้องเปลี่ยนรหัสไวไฟ"],
     rev="อ่านกลับหลัง", join="เขียนติดกัน", me="ฉัน", thx="ขอบคุณ!",
     names="แม่|พ่อ|พลอย|ต้น", cities="เชียงใหม่|กรุงเทพฯ|ขอนแก่น", streets="ถนนสุขุมวิท|ซอยอารีย์|ถนนนิมมานเหมินท์",
     banks="กสิกรไทย|SCB|กรุงเทพ", shops="Shopee|Lazada|7-Eleven", mail="Gmail|Hotmail|Yahoo", surn="ศรีสุข|วงศ์ใหญ่|แก้วมณี", cur="฿", school="school portal")
lang("vi",
     nouns="mật khẩu|mật khẩu wifi|mã PIN|mã PIN thẻ ATM|mã cửa|mã cổng|mã báo động|mã két sắt|mã khóa số|mã dự phòng|số thẻ|tên đăng nhập|tên thú cưng đầu tiên của bạn?|họ thời con gái của mẹ bạn?|mã đơn hàng|mã vận đơn|mã đặt chỗ|số hiệu chuyến bay|số phòng|số điện thoại|sinh nhật|số thẻ thành viên|địa chỉ|dị ứng|thuốc",
     digits="không một hai ba bốn năm sáu bảy tám chín",
     say=["{x} là {v}", "ghi nhớ: {x} {v}", "{x}: {v} nha"],
     ask=["{x} là gì nhỉ?", "Gửi mình {x} với"], ans=["{v}", "là {v}", "hình như {v}"],
     pre=["Ghi chú cho bản thân:", "Nhớ:", "Mẹ chuyển tiếp:"],
     fill=["mua sữa", "gọi cho bà vào Chủ nhật", "nha sĩ thứ Ba 9:30", "đổ rác"],
     nov=["Hôm qua mình đã đổi mật khẩu Netflix.", "Nhắc mình đặt lại mã PIN của router.", "Mã cửa ghi trên tờ giấy dán tủ lạnh.", "Phải đổi mật khẩu wifi."],
     rev="đọc ngược", join="viết liền", me="mình", thx="cảm ơn!",
     names="Mẹ|Bố|Lan|Minh", cities="Hà Nội|Đà Nẵng|Huế", streets="đường Lê Lợi|phố Hàng Bông|đường Nguyễn Huệ",
     banks="Vietcombank|Techcombank|MB Bank", shops="Shopee|Tiki|Lazada", mail="Gmail|Yahoo|Outlook", surn="Nguyễn|Trần|Phạm", cur="₫", school="school portal")
lang("id",
     nouns="kata sandi|kata sandi wifi|PIN|PIN ATM|kode pintu|kode gerbang|kode alarm|kode brankas|kombinasi gembok|kode cadangan|nomor kartu|nama pengguna|nama hewan peliharaan pertama Anda?|nama gadis ibu kandung?|nomor pesanan|nomor resi|kode booking|nomor penerbangan|nomor kamar|nomor HP|ulang tahun|nomor anggota|alamat|alergi|obat",
     digits="nol satu dua tiga empat lima enam tujuh delapan sembilan",
     say=["{x} adalah {v}", "catat ya: {x} {v}", "{x}: {v}"],
     ask=["{x} apa ya?", "Kirimin {x} dong"], ans=["{v}", "{v} ya", "kayaknya {v}"],
     pre=["Catatan untuk diri sendiri:", "Ingat:", "Diteruskan dari Ibu:"],
     fill=["beli susu", "telepon nenek hari Minggu", "dokter gigi Selasa 9.30", "buang sampah"],
     nov=["Kemarin aku ganti kata sandi Netflix.", "Ingatkan aku untuk reset PIN router.", "Kode pintu ada di kertas yang ditempel di kulkas.", "Harus ganti kata sandi wifi."],
     rev="dibaca terbalik", join="digabung semua", me="aku", thx="makasih!",
     names="Ibu|Ayah|Putri|Budi", cities="Bandung|Surabaya|Yogyakarta", streets="Jl. Sudirman|Jl. Merdeka|Jl. Diponegoro",
     banks="BCA|Mandiri|BRI", shops="Tokopedia|Shopee|Bukalapak", mail="Gmail|Yahoo|Outlook", surn="Santoso|Wijaya|Hidayat", cur="Rp", school="school portal")
lang("zh",
     nouns="密码|Wi-Fi密码|PIN码|银行卡密码|门禁密码|大门密码|报警器密码|保险箱密码|密码锁组合|备用验证码|卡号|用户名|你的第一只宠物叫什么？|你母亲的娘家姓？|订单号|快递单号|预订编号|航班号|房间号|手机号|生日|会员号|地址|过敏|药",
     digits="零 一 二 三 四 五 六 七 八 九",
     say=["{x}是{v}", "记一下：{x} {v}", "{x}：{v}"],
     ask=["{x}是多少来着？", "把{x}发我一下"], ans=["{v}", "是{v}", "好像是{v}"],
     pre=["给自己的备忘：", "记住：", "妈妈转发的："],
     fill=["买牛奶", "周日给奶奶打电话", "周二9:30看牙医", "倒垃圾"],
     nov=["昨天把Netflix密码改了。", "提醒我重置路由器的PIN码。", "门禁密码写在冰箱上的便条上。", "得改一下Wi-Fi密码。"],
     rev="倒过来读", join="连在一起", me="我", thx="谢谢！",
     names="妈妈|爸爸|小丽|阿强", cities="杭州|成都|西安", streets="中山路|人民大道|解放路",
     banks="招商银行|工商银行|建设银行", shops="淘宝|京东|拼多多", mail="QQ邮箱|163邮箱|Gmail", surn="王|李|张", cur="¥", school="学校平台")
lang("ja",
     nouns="パスワード|Wi-Fiのパスワード|暗証番号|キャッシュカードの暗証番号|ドアの暗証番号|門の暗証番号|警報器の解除コード|金庫の暗証番号|ダイヤル錠の番号|バックアップコード|カード番号|ユーザー名|最初のペットの名前は？|母親の旧姓は？|注文番号|追跡番号|予約番号|便名|部屋番号|電話番号|誕生日|会員番号|住所|アレルギー|薬",
     digits="ゼロ いち に さん よん ご ろく なな はち きゅう",
     say=["{x}は{v}", "メモ：{x} {v}", "{x}：{v}"],
     ask=["{x}って何だっけ？", "{x}送ってくれる？"], ans=["{v}", "{v}だよ", "たしか{v}"],
     pre=["自分用メモ：", "忘れないこと：", "母から転送："],
     fill=["牛乳を買う", "日曜におばあちゃんに電話", "火曜9:30に歯医者", "ゴミ出し"],
     nov=["昨日Netflixのパスワードを変えた。", "ルーターのPINをリセットするのを忘れないように。", "ドアの暗証番号は冷蔵庫のメモに書いてある。", "Wi-Fiのパスワードを変えなきゃ。"],
     rev="逆から読んで", join="続けて入力", me="私", thx="ありがとう！",
     names="母|父|さくら|健太", cities="大阪|札幌|福岡", streets="桜通り|中央通り|本町",
     banks="三菱UFJ|ゆうちょ|楽天銀行", shops="楽天|Amazon.co.jp|メルカリ", mail="Yahoo!メール|Gmail|docomoメール", surn="田中|佐藤|鈴木", cur="円", school="学校ポータル")
lang("ko",
     nouns="비밀번호|와이파이 비밀번호|PIN|카드 비밀번호|현관 비밀번호|대문 비밀번호|경보기 해제 코드|금고 비밀번호|자물쇠 번호|백업 코드|카드 번호|아이디|첫 반려동물의 이름은?|어머니의 결혼 전 성은?|주문 번호|송장 번호|예약 번호|항공편 번호|방 번호|전화번호|생일|회원 번호|주소|알레르기|약",
     digits="공 일 이 삼 사 오 육 칠 팔 구",
     say=["{x}: {v}", "기억해 둬: {x} {v}", "{x} = {v}"],
     ask=["{x} 뭐였지?", "{x} 좀 보내줘"], ans=["{v}", "{v}이야", "아마 {v}"],
     pre=["나에게 메모:", "기억할 것:", "엄마가 전달함:"],
     fill=["우유 사기", "일요일에 할머니께 전화", "화요일 9:30 치과", "분리수거"],
     nov=["어제 넷플릭스 비밀번호 바꿨어.", "공유기 PIN 초기화하라고 알려줘.", "현관 비밀번호는 냉장고 메모에 적혀 있어.", "와이파이 비밀번호 바꿔야 해."],
     rev="거꾸로 읽기", join="붙여서", me="나", thx="고마워!",
     names="엄마|아빠|지민|민수", cities="부산|대전|광주", streets="세종대로|테헤란로|중앙로",
     banks="국민은행|카카오뱅크|신한은행", shops="쿠팡|11번가|마켓컬리", mail="네이버|다음|Gmail", surn="김|이|박", cur="원", school="학교 포털")
lang("sw",
     nouns="nenosiri|nenosiri la Wi-Fi|PIN|PIN ya kadi|namba ya siri ya mlango|namba ya siri ya geti|namba ya kengele|namba ya sefu|namba za kufuli|misimbo ya akiba|namba ya kadi|jina la mtumiaji|jina la mnyama wako wa kwanza?|jina la ukoo la mama yako kabla ya kuolewa?|namba ya oda|namba ya ufuatiliaji|namba ya uhifadhi|namba ya ndege|namba ya chumba|namba ya simu|siku ya kuzaliwa|namba ya uanachama|anwani|mzio|dawa",
     digits="sifuri moja mbili tatu nne tano sita saba nane tisa",
     say=["{x} ni {v}", "kumbuka: {x} {v}", "{x}: {v}"],
     ask=["{x} ni ipi?", "Nitumie {x} tafadhali"], ans=["{v}", "ni {v}", "nadhani {v}"],
     pre=["Kumbukumbu yangu:", "Kumbuka:", "Kutoka kwa Mama:"],
     fill=["kununua maziwa", "kumpigia bibi Jumapili", "daktari wa meno Jumanne saa 3:30", "kutoa taka"],
     nov=["Jana nilibadilisha nenosiri la Netflix.", "Nikumbushe kubadilisha PIN ya router.", "Namba ya siri ya mlango iko kwenye karatasi kwenye friji.", "Lazima nibadilishe nenosiri la Wi-Fi."],
     rev="soma kinyume", join="vyote pamoja", me="mimi", thx="asante!",
     names="Mama|Baba|Amina|Juma", cities="Nairobi|Dar es Salaam|Mombasa", streets="Barabara ya Uhuru|Mtaa wa Moi|Barabara ya Kenyatta",
     banks="M-Pesa|Equity Bank|CRDB", shops="Jumia|Kilimall|Naivas", mail="Gmail|Yahoo|Outlook", surn="Mwangi|Otieno|Njeri", cur="KSh", school="school portal")

LANGS = list(L)
assert len(LANGS) >= 26
UNIV_SAY = ["{x}: {v}", "{x} = {v}", "{x} — {v}", "{x} → {v}"]
NATIVE_DIGITS = {"ar": "٠١٢٣٤٥٦٧٨٩", "fa": "۰۱۲۳۴۵۶۷۸۹", "hi": "०१२३४५६७८९", "bn": "০১২৩৪৫৬৭৮৯",
                 "th": "๐๑๒๓๔๕๖๗๘๙", "ta": "௦௧௨௩௪௫௬௭௮௯"}
FULLWIDTH_DIGITS = "０１２３４５６７８９"

# Extra credential nouns (fallback: English noun inside the local frame, as people mix).
EXTRA = {
    "garage": {"en": "garage code", "de": "Garagencode", "fr": "code du garage", "es": "código del garaje", "it": "codice del garage", "pt": "código da garagem", "nl": "garagecode", "pl": "kod do garażu", "ru": "код от гаража", "tr": "garaj kodu", "zh": "车库密码", "ja": "ガレージの暗証番号", "ko": "차고 비밀번호"},
    "lockbox": {"en": "key safe code", "de": "Schlüsseltresor-Code", "fr": "code de la boîte à clés", "es": "código del cajetín de llaves", "it": "codice della cassetta delle chiavi", "pt": "código do cofre de chaves", "nl": "sleutelkluis-code", "pl": "kod do skrytki na klucze", "ru": "код ключницы", "tr": "anahtar kutusu şifresi", "zh": "钥匙盒密码", "ja": "キーボックスの番号", "ko": "키박스 비밀번호", "vi": "mã hộp chìa khóa", "id": "kode kotak kunci", "th": "รหัสกล่องกุญแจ"},
    "intercom": {"en": "intercom code", "de": "Klingelcode", "fr": "code de l'interphone", "es": "código del portero", "it": "codice del citofono", "pt": "código do interfone", "pl": "kod domofonu", "ru": "код домофона", "uk": "код домофона", "cs": "kód na zvonek", "tr": "diyafon kodu", "ko": "공동현관 비밀번호", "ja": "オートロックの番号", "zh": "单元门密码"},
    "puk": {"en": "PUK", "de": "PUK", "fr": "code PUK", "es": "PUK", "ru": "PUK-код", "tr": "PUK kodu", "zh": "PUK码", "ja": "PUKコード", "ko": "PUK 코드"},
    "simpin": {"en": "SIM PIN", "de": "SIM-PIN", "fr": "code PIN de la SIM", "es": "PIN de la SIM", "it": "PIN della SIM", "pt": "PIN do chip", "ru": "ПИН SIM-карты", "tr": "SIM PIN", "id": "PIN kartu SIM", "zh": "SIM卡PIN码", "ja": "SIMのPIN", "ko": "유심 PIN"},
    "unlock": {"en": "phone passcode", "de": "Handy-Code", "fr": "code de déverrouillage", "es": "código de desbloqueo", "it": "codice di sblocco", "pt": "senha do celular", "nl": "ontgrendelcode", "pl": "kod do telefonu", "ru": "код от телефона", "tr": "telefon şifresi", "id": "kode buka HP", "vi": "mật mã điện thoại", "zh": "手机锁屏密码", "ja": "スマホのパスコード", "ko": "휴대폰 잠금 비밀번호", "hi": "फ़ोन का पासकोड", "ar": "رمز قفل الهاتف"},
    "parental": {"en": "parental controls PIN", "de": "Jugendschutz-PIN", "fr": "code du contrôle parental", "es": "PIN del control parental", "it": "PIN del parental control", "pt": "PIN do controle parental", "nl": "kinderslot-pincode", "pl": "PIN kontroli rodzicielskiej", "ru": "ПИН родительского контроля", "tr": "ebeveyn denetimi PIN'i", "ko": "자녀 보호 PIN", "ja": "ペアレンタルコントロールの暗証番号"},
    "seed": {"en": "wallet recovery phrase", "de": "Wiederherstellungsphrase der Wallet", "fr": "phrase de récupération du portefeuille", "es": "frase semilla de la billetera", "pt": "frase de recuperação da carteira", "ru": "сид-фраза кошелька", "tr": "cüzdan kurtarma kelimeleri", "zh": "钱包助记词", "ja": "ウォレットの復元フレーズ", "ko": "지갑 복구 구문", "vi": "cụm từ khôi phục ví", "id": "frasa pemulihan dompet"},
    "recovery": {"en": "recovery key", "de": "Wiederherstellungsschlüssel", "fr": "clé de récupération", "es": "clave de recuperación", "it": "chiave di recupero", "pt": "chave de recuperação", "nl": "herstelsleutel", "pl": "klucz odzyskiwania", "ru": "ключ восстановления", "tr": "kurtarma anahtarı", "zh": "恢复密钥", "ja": "回復キー", "ko": "복구 키"},
    "masterpw": {"en": "master password", "de": "Master-Passwort", "fr": "mot de passe maître", "es": "contraseña maestra", "pt": "senha mestra", "ru": "мастер-пароль", "zh": "主密码", "ja": "マスターパスワード"},
}


def extra_noun(key, lg):
    return EXTRA[key].get(lg, EXTRA[key]["en"])


def pick_lang():
    return "en" if chance(0.33) else ch(LANGS[1:])


# ---------------------------------------------------------------------------
# Credential value makers (used ONLY by secret generators)
# ---------------------------------------------------------------------------
PETS = ["Biscuit", "Luna", "Max", "Bella", "Rocky", "Milo", "Nala", "Simba", "Coco", "Bruno",
        "Kira", "Mochi", "Tofu", "Pixel", "Sasha", "Murzik", "Barsik", "Pamuk", "Boncuk", "Loki",
        "Chispa", "Pelusa", "Tobi", "Rex", "Filou", "Minou", "Kiki", "Bobik", "Lucky", "Oreo",
        "Peanut", "Hachi", "Momo", "Bori", "Dubu", "Simba", "Tigger", "Pumpkin", "Ziggy", "Fluffy"]
WORDS = ["sunflower", "harbor", "velvet", "pepper", "maple", "copper", "lantern", "meadow", "falcon",
         "cobalt", "orchid", "thunder", "biscuit", "marble", "pickle", "saffron", "glacier", "tundra",
         "canyon", "willow", "ember", "nutmeg", "pebble", "comet", "violet", "juniper", "walnut",
         "quartz", "tango", "mango", "river", "castle", "rocket", "garden", "yellow", "purple",
         "banana", "dragon", "winter", "summer", "cherry", "monkey", "shadow", "silver", "forest",
         "ocean", "pirate", "tiger", "puzzle", "kettle", "bamboo", "cactus", "donkey", "lemon"]
TEAMS = ["Arsenal", "Liverpool", "Barca", "Galatasaray", "Juventus", "Bayern", "Benfica", "Ajax",
         "Flamengo", "Spartak", "Lakers", "Yankees"]
SYMS = "!@#$%&*?-_.+"
ASCII_NAMES = ["anna", "jonas", "lucia", "marco", "elif", "priya", "minh", "budi", "sara", "dima",
               "kasia", "noa", "ali", "yuki", "jimin", "amina", "tom", "grace", "hugo", "ioana"]


def pw_weak():
    f = rng.randrange(7)
    if f == 0:
        pet, yr = ch(PETS), str(rng.randint(1995, 2024))
        return pet + yr, (pet, yr)
    if f == 1:
        return ch(PETS).lower() + str(rng.randint(1, 99)), None
    if f == 2:
        return ch(ASCII_NAMES).capitalize() + "%02d%02d" % (rng.randint(1, 28), rng.randint(1, 12)), None
    if f == 3:
        return ch(WORDS) + ch(["123", "1", "!", "2024", "007", "12345"]), None
    if f == 4:
        t, yr = ch(TEAMS), str(rng.randint(1970, 2023))
        return t + yr, (t, yr)
    if f == 5:
        return ch(["qwerty", "asdf", "zxcv", "iloveyou", "letmein", "welcome"]) + str(rng.randint(10, 999)), None
    w = ch(WORDS)
    return w.capitalize() + ch(SYMS[:4]) + str(rng.randint(1, 99)), None


def pw_medium():
    f = rng.randrange(3)
    if f == 0:
        return ch(WORDS).capitalize() + ch(SYMS) + digits(rng.randint(2, 4))
    if f == 1:
        return ch(WORDS).capitalize() + "-" + ch(WORDS).capitalize() + "-" + digits(2)
    return ch(ASCII_NAMES) + "." + ch(WORDS) + digits(2) + ch("!?#")


def pw_strong():
    pool = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789" + SYMS
    while True:
        s = "".join(ch(pool) for _ in range(rng.randint(12, 20)))
        if any(c.islower() for c in s) and any(c.isupper() for c in s) and any(c.isdigit() for c in s):
            return s


def passphrase():
    n = rng.randint(3, 5)
    ws = [ch(WORDS) for _ in range(n)]
    sep = ch(["-", " ", ".", "_", ""])
    if sep == "" or chance(0.3):
        ws = [w.capitalize() for w in ws]
    s = sep.join(ws)
    if chance(0.4):
        s += ch(["", "-"]) + digits(rng.randint(1, 3))
    return s


def any_password():
    r = rng.random()
    if r < 0.35:
        return pw_weak()
    if r < 0.65:
        return pw_medium(), None
    if r < 0.9:
        return pw_strong(), None
    return passphrase(), None


def pin(n=None):
    return digits(n or ch([4, 4, 4, 4, 6, 5]))


TEST_CARDS = {"4111111111111111", "4242424242424242", "4012888888881881", "5555555555554444",
              "5105105105105100", "378282246310005", "371449635398431", "6011111111111117",
              "6011000990139424", "3530111333300000", "3566002020360505", "4000056655665556",
              "5200828282828210", "4000000000000002", "4012000033330026", "4917610000000000",
              "6200000000000005", "378734493671000", "5454545454545454", "4444333322221111"}


def luhn_ok(num):
    tot = 0
    for i, c in enumerate(reversed(num)):
        d = int(c)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        tot += d
    return tot % 10 == 0


def card_number():
    brand = ch(["visa", "visa", "mc", "mc", "amex", "discover", "jcb", "unionpay"])
    if brand == "visa":
        pre, n = "4" + digits(5), 16
    elif brand == "mc":
        pre, n = (str(rng.randint(51, 55)) if chance(0.7) else str(rng.randint(2221, 2720))), 16
    elif brand == "amex":
        pre, n = ch(["34", "37"]), 15
    elif brand == "discover":
        pre, n = ch(["6011", "65" + digits(2)]), 16
    elif brand == "jcb":
        pre, n = str(rng.randint(3528, 3589)), 16
    else:
        pre, n = "62" + digits(4), 16
    while True:
        body = pre + digits(n - len(pre) - 1)
        for c in "0123456789":
            if luhn_ok(body + c):
                num = body + c
                break
        if num not in TEST_CARDS and not any(c * 6 in num for c in "0123456789"):
            return num, brand


def fmt_card(num):
    st = rng.randrange(4)
    if st == 0:
        return num
    sep = " " if st < 3 else "-"
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, 16, 4))


def expiry():
    m, y = rng.randint(1, 12), rng.randint(25, 31)
    return ch(["%02d/%02d" % (m, y), "%02d/20%02d" % (m, y), "%02d-%02d" % (m, y)])


SEED_WORDS = ["abandon", "ability", "absorb", "acoustic", "adapt", "afford", "agent", "alarm", "album",
              "anchor", "angle", "apple", "arena", "armor", "artist", "august", "bacon", "badge", "balcony",
              "bamboo", "barrel", "basket", "beach", "before", "blanket", "bloom", "border", "bridge",
              "bronze", "cabin", "cactus", "camera", "canoe", "carbon", "castle", "cereal", "chimney",
              "circle", "clever", "coffee", "copper", "cotton", "cradle", "crystal", "dolphin", "during",
              "eagle", "echo", "elbow", "empty", "fabric", "famous", "fever", "flame", "galaxy", "garlic",
              "gentle", "giraffe", "harbor", "hollow", "husband", "island", "jungle", "kitten", "ladder",
              "lemon", "lizard", "magnet", "mango", "meadow", "mirror", "nephew", "noodle", "oyster",
              "paddle", "pepper", "pigeon", "pilot", "planet", "pumpkin", "puzzle", "rabbit", "ribbon",
              "saddle", "salmon", "season", "shadow", "silver", "spider", "stumble", "tennis", "thunder",
              "tomato", "tunnel", "velvet", "walnut", "window", "yellow", "zebra"]


def backup_codes():
    k = rng.randint(3, 8)
    st = rng.randrange(3)
    codes = []
    for _ in range(k):
        if st == 0:
            codes.append(digits(4) + " " + digits(4))
        elif st == 1:
            codes.append(digits(8))
        else:
            a = "abcdefghjkmnpqrstuvwxyz23456789"
            codes.append("".join(ch(a) for _ in range(4)) + "-" + "".join(ch(a) for _ in range(4)))
    return codes


def recovery_key():
    st = rng.randrange(3)
    A = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    if st == 0:
        return "-".join("".join(ch(A) for _ in range(4)) for _ in range(7))
    if st == 1:
        return "-".join(digits(6) for _ in range(8))
    return "RK-" + "-".join("".join(ch(A) for _ in range(5)) for _ in range(4))


# ---------------------------------------------------------------------------
# Benign value makers (never receive a credential)
# ---------------------------------------------------------------------------
def upper_alnum(n, A="ABCDEFGHJKLMNPQRSTUVWXYZ23456789"):
    return "".join(ch(A) for _ in range(n))


def order_no(shop):
    st = rng.randrange(5)
    if st == 0:
        return "%03d-%07d-%07d" % (rng.randint(100, 999), rng.randint(0, 9999999), rng.randint(0, 9999999))
    if st == 1:
        return "#" + digits(rng.randint(6, 9))
    if st == 2:
        return upper_alnum(2, "ABCDEFGHKMNPRSTUVWXYZ") + "-" + digits(8)
    if st == 3:
        return digits(4) + "-" + digits(4) + "-" + digits(4)
    return "ORD" + digits(9)


CARRIERS = ["DHL", "UPS", "FedEx", "Royal Mail", "PostNL", "La Poste", "Correos", "InPost", "Yurtiçi Kargo",
            "Почта России", "Nova Poshta", "顺丰", "ヤマト運輸", "CJ대한통운", "J&T", "GHN", "Aramex", "Kerry Express", "G4S"]


def tracking_no():
    st = rng.randrange(6)
    if st == 0:
        return "1Z" + upper_alnum(6) + digits(10)
    if st == 1:
        return "JJD" + digits(18)
    if st == 2:
        return upper_alnum(2, "ABCDEFGHKLMNPRSTUVWXYZ") + digits(9) + ch(["GB", "DE", "NL", "FR", "CN", "TR"])
    if st == 3:
        return "SF" + digits(12)
    if st == 4:
        return digits(12)
    return digits(20)


AIRLINES = [("LH", "Lufthansa"), ("BA", "British Airways"), ("AF", "Air France"), ("IB", "Iberia"),
            ("TK", "Turkish Airlines"), ("EK", "Emirates"), ("QR", "Qatar Airways"), ("KL", "KLM"),
            ("LO", "LOT"), ("AI", "Air India"), ("TG", "Thai Airways"), ("VN", "Vietnam Airlines"),
            ("GA", "Garuda"), ("CA", "Air China"), ("NH", "ANA"), ("KE", "Korean Air"), ("KQ", "Kenya Airways"),
            ("LY", "El Al"), ("SV", "Saudia"), ("FR", "Ryanair"), ("U2", "easyJet"), ("W6", "Wizz Air")]


def flight_no():
    code, name = ch(AIRLINES)
    return code + ch(["", " "]) + str(rng.randint(10, 2999)), name


def pnr():
    return upper_alnum(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")


def seat():
    return str(rng.randint(1, 45)) + ch("ABCDEFK")


def airport_gate():
    return ch("ABCDEFGHK") + str(rng.randint(1, 68))


PHONE_FMT = {"en": ["+44 7{a} {b} {c}", "(512) {b}-{c}", "07{a} {b}{c}"], "de": ["+49 15{a} {b}{c}", "0151 {b} {c}"],
             "fr": ["06 {p} {p} {p} {p}", "+33 6 {p} {p} {p} {p}"], "es": ["+34 6{a} {b} {c}", "6{a} {p} {p} {p}"],
             "it": ["+39 3{a} {b}{c}", "3{a} {b} {c}"], "pt": ["+55 11 9{b}-{c}", "+351 91{p} {b} {c}"],
             "tr": ["0 5{a} {b} {p} {p}", "+90 5{a} {b} {c}"], "ru": ["+7 9{a} {b}-{p}-{p}", "8 9{a} {b} {p} {p}"],
             "hi": ["+91 9{a}{p} {b}{p}", "98{a}{p}{b}{p}"], "zh": ["138 {c} {c}", "+86 139{c}{c}"],
             "ja": ["090-{c}-{c}", "+81 80-{c}-{c}"], "ko": ["010-{c}-{c}", "+82 10-{c}-{c}"],
             "id": ["0812-{c}-{c}", "+62 813 {c} {c}"], "vi": ["090 {b} {b}{p}", "+84 91 {b} {c}"],
             "sw": ["+254 7{a} {b} {b}", "07{a} {b} {b}"], "ar": ["+966 5{a} {b} {c}", "05{a} {b} {c}"],
             "he": ["050-{b}-{c}", "+972 52-{b}-{c}"], "fa": ["0912 {b} {c}", "+98 912 {b} {c}"],
             "th": ["08{p}-{b}-{c}", "+66 8{a} {b} {c}"]}


def phone_no(lg):
    f = ch(PHONE_FMT.get(lg, ["+{p} {a} {b} {c}", "+{p}{a}{b}{c}"]))
    out = ""
    i = 0
    while i < len(f):
        if f[i] == "{":
            j = f.index("}", i)
            t = f[i + 1:j]
            out += {"a": digits(2), "b": digits(3), "c": digits(4), "p": digits(2)}[t]
            i = j + 1
        else:
            out += f[i]
            i += 1
    return out


def email_addr(lg):
    name = ch(ASCII_NAMES)
    dom = ch(["gmail.com", "outlook.com", "yahoo.com", "gmx.de", "web.de", "orange.fr", "libero.it", "wp.pl",
              "seznam.cz", "yandex.ru", "ukr.net", "hotmail.com", "naver.com", "qq.com", "163.com",
              "icloud.com", "proton.me", "mail.ru", "yahoo.co.jp", "ymail.com"])
    return name + ch([".", "_", "", "."]) + ch(["k", "m", "smith", "b", "y", "r", "lee", "n"]) + (digits(rng.randint(0, 4))) + "@" + dom


def iban():
    cc, bban = ch([("DE", lambda: digits(18)), ("ES", lambda: digits(20)), ("PL", lambda: digits(24)),
                   ("NL", lambda: ch(["INGB", "RABO", "ABNA"]) + digits(10)),
                   ("GB", lambda: ch(["NWBK", "BARC", "MIDL"]) + digits(14)), ("FR", lambda: digits(23)),
                   ("TR", lambda: digits(5) + "0" + digits(16)), ("IT", lambda: "X" + digits(22))])
    b = bban()
    num = "".join(str(int(c, 36)) for c in b + cc) + "00"
    chk = 98 - int(num) % 97
    s = cc + "%02d" % chk + b
    if chance(0.6):
        s = " ".join(s[i:i + 4] for i in range(0, len(s), 4))
    return s


def national_id(lg):
    if lg == "es":
        n = rng.randint(10000000, 99999999)
        return "DNI", "%d%s" % (n, "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23])
    if lg == "tr":
        while True:
            d = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(8)]
            d10 = ((sum(d[0:9:2]) * 7) - sum(d[1:8:2])) % 10
            d.append(d10)
            d.append(sum(d) % 10)
            return "TC kimlik no", "".join(map(str, d))
    if lg == "zh":
        body = digits(6) + "19%02d%02d%02d" % (rng.randint(60, 99), rng.randint(1, 12), rng.randint(1, 28)) + digits(3)
        w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
        c = "10X98765432"[sum(int(a) * b for a, b in zip(body, w)) % 11]
        return "身份证号", body + c
    if lg == "hi":
        return "Aadhaar", " ".join([str(rng.randint(2, 9)) + digits(3), digits(4), digits(4)])
    if lg == "fr":
        n = ch("12") + "%02d%02d" % (rng.randint(60, 99), rng.randint(1, 12)) + digits(8)
        return "n° de sécu", n + "%02d" % (97 - int(n) % 97)
    if lg == "en":
        while True:
            d = [rng.randint(0, 9) for _ in range(9)]
            c = 11 - sum(x * w for x, w in zip(d, range(10, 1, -1))) % 11
            if c == 11:
                c = 0
            if c != 10:
                s = "".join(map(str, d)) + str(c)
                return "NHS number", s[:3] + " " + s[3:6] + " " + s[6:]
    if lg == "de":
        return "Steuer-ID", digits(2) + " " + digits(3) + " " + digits(3) + " " + digits(3)
    if lg == "it":
        return "codice fiscale", upper_alnum(6, "BCDFGHLMNPRSTVZ") + digits(2) + ch("ABCDEHLMPRST") + digits(2) + ch("ABCDEFGHLM") + digits(3) + ch("ABCDEFGHJKLMNPQRSTUVWXYZ")
    if lg == "ko":
        return "주민등록번호", "%02d%02d%02d-%s" % (rng.randint(60, 99), rng.randint(1, 12), rng.randint(1, 28), ch("12") + digits(6))
    return "ID", digits(rng.randint(9, 12))


def date_str(lg):
    y, m, d = rng.randint(1940, 2020), rng.randint(1, 12), rng.randint(1, 28)
    if lg in ("zh", "ja"):
        return "%d年%d月%d日" % (y, m, d)
    if lg == "ko":
        return "%d년 %d월 %d일" % (y, m, d)
    if lg == "en":
        return ch(["%02d/%02d/%d" % (d, m, y), "%d-%02d-%02d" % (y, m, d), "%s %d" % (ch(["March", "July", "Oct", "12 Jan"]), y)])
    return ch(["%02d.%02d.%d" % (d, m, y), "%02d/%02d/%d" % (d, m, y), "%d-%02d-%02d" % (y, m, d)])


def date_recent(lg):
    y, m, d = rng.randint(2024, 2026), rng.randint(1, 12), rng.randint(1, 28)
    if lg in ("zh", "ja"):
        return "%d月%d日" % (m, d)
    if lg == "ko":
        return "%d월 %d일" % (m, d)
    return ch(["%02d.%02d." % (d, m), "%02d/%02d" % (d, m), "%d-%02d-%02d" % (y, m, d)])


def address(lg):
    d = L[lg]
    st, city = ch(d["streets"]), ch(d["cities"])
    no = str(rng.randint(1, 180))
    pc = digits(5) if lg not in ("en", "nl", "pl", "ja", "he") else {"en": "LS" + str(rng.randint(1, 28)) + " " + str(rng.randint(1, 9)) + upper_alnum(2, "ABDEFGHJLNPQRSTUWXYZ"),
                                                                    "nl": digits(4) + " " + upper_alnum(2, "ABCDEFGHJKLMNPRSTVWXZ"),
                                                                    "pl": digits(2) + "-" + digits(3), "ja": "〒" + digits(3) + "-" + digits(4),
                                                                    "he": digits(7)}[lg]
    if lg in ("zh", "ja", "ko"):
        return "%s %s%s号 %s" % (city, st, no, pc) if lg != "ko" else "%s %s %s길 %s" % (city, st, no, pc)
    return "%s %s, %s %s" % (st, no, pc, city)


DRUGS = ["Metformin 500 mg twice daily", "Levothyroxine 50 µg every morning", "Amlodipine 5 mg", "Ibuprofen 400 mg max 3/day",
         "Salbutamol inhaler 2 puffs as needed", "Atorvastatin 20 mg at night", "Omeprazole 20 mg before breakfast",
         "Sertraline 50 mg", "Vitamin D 1000 IU", "Amoxicillin 500 mg 3× a day for 7 days", "Insulin glargine 18 units at 22:00"]
ALLERGENS = ["penicillin", "peanuts", "shellfish", "latex", "bee stings", "lactose", "gluten", "sulfa drugs", "pollen", "cats"]


# ---------------------------------------------------------------------------
# Subjects.  ctx items: (sem, label-or-None, value, sensitive)
# ---------------------------------------------------------------------------
def subj(kind, lg, x, v, fk, nk=None, ctx=None, en=None, f=None, raw=None, parts=None):
    raw = v if raw is None else raw
    ctype = "digits" if raw.isdigit() else "alnum"
    return dict(kind=kind, lang=lg, x=x, v=v, raw=raw, ctype=ctype, fk=fk, nk=nk, ctx=ctx or [],
                en=en or [], f=f or {}, parts=parts)


STREAMING = ["Netflix", "Disney+", "Spotify", "Prime Video", "Max", "Crunchyroll", "YouTube Premium",
             "Apple TV+", "Hotstar", "Shahid", "iQIYI", "Viu", "Deezer", "Canal+", "Kinopoisk", "Showmax"]
SOCIAL = ["Instagram", "Facebook", "TikTok", "Snapchat", "VK", "LINE", "KakaoTalk", "WeChat", "Pinterest", "Reddit"]
SITES = ["Steam", "PlayStation", "Etsy", "Booking.com", "Uber", "Duolingo", "Zoom", "Dropbox", "Canva",
         "AliExpress", "eBay", "Vinted", "Airbnb", "Strava", "Nintendo", "Roblox", "Xbox", "Epic Games"]
VPNS = ["GlobalProtect", "Cisco AnyConnect", "FortiClient", "OpenVPN", "the work VPN", "Pulse Secure"]
SSIDS = ["FRITZ!Box 7590 XK", "Vodafone-3F2A", "BT-Hub6-M8QK", "TP-Link_4C21", "NETGEAR47", "Livebox-8D10",
         "MOVISTAR_2E91", "Ziggo5521", "TIM-29384751", "HUAWEI-B535-7A1C", "casa_garcia", "Familie Becker",
         "Bahçe_5G", "ASUS_58_2G", "iPhone von Lena", "dom_kowalskich", "Sweethome 5GHz", "oma's wifi",
         "Keenetic-1127", "Xiaomi_9F3D", "KT_GiGA_5G_3A7E", "SK_WiFiGIGA8B20", "TRUEGIGATEX_2.4G", "AIS_FIBRE_5G"]


def user_for(lg):
    return ch([email_addr(lg), ch(ASCII_NAMES) + digits(rng.randint(0, 4)), ch(ASCII_NAMES) + "." + ch(["k", "b", "w", "s"]) + str(rng.randint(80, 99))])


def S_email_password(lg):
    d = L[lg]
    svc = ch(d["mail"])
    v, parts = any_password()
    u = email_addr(lg)
    return subj("email_password", lg, d["n"]["pw"], v, "password", "pw",
                [("svc", None, svc, False), ("user", d["n"]["user"], u, False)],
                ["{svc} login: {user} / {v}", "my {svc} password is {v} (account {user})", "email {user} — pw {v}",
                 "For {svc}: username {user}, password {v}", "{user} pass {v}",
                 "if you ever need to get into my {svc}, it's {user} and the password is {v}"],
                dict(svc=svc, user=u), parts=parts)


def S_streaming_password(lg):
    d = L[lg]
    svc = ch(STREAMING)
    v, parts = any_password()
    u = email_addr(lg)
    return subj("streaming_password", lg, d["n"]["pw"], v, "password", "pw",
                [("svc", None, svc, False), ("user", d["n"]["user"], u, False)],
                ["{svc} account: {user} / {v}", "the {svc} password is {v}", "Grandma's {svc} login is {user}, password {v}",
                 "{svc} pw {v} - don't change it, the kids use it", "we share {svc}: {user} pw: {v}"],
                dict(svc=svc, user=u), parts=parts)


def S_social_password(lg):
    d = L[lg]
    svc = ch(SOCIAL)
    v, parts = any_password()
    u = "@" + ch(ASCII_NAMES) + digits(rng.randint(0, 3))
    return subj("social_password", lg, d["n"]["pw"], v, "password", "pw",
                [("svc", None, svc, False), ("user", d["n"]["user"], u, False)],
                ["{svc}: {user} / {v}", "my {svc} password is {v}", "new {svc} pw for {user}: {v}"],
                dict(svc=svc, user=u), parts=parts)


def S_wifi_password(lg):
    d = L[lg]
    ssid = ch(SSIDS)
    r = rng.random()
    if r < 0.4:
        v, parts = pw_weak()
    elif r < 0.7:
        v, parts = "".join(ch("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(rng.randint(8, 16))), None
    else:
        v, parts = (digits(rng.randint(8, 12)) if chance(0.5) else pw_medium()), None
    return subj("wifi_password", lg, d["n"]["wifi"], v, "password", "wifi",
                [("ssid", ch(["SSID", "Wi-Fi", "WLAN", "📶"]), ssid, False)],
                ["wifi at home: {ssid} / {v}", "the Wi-Fi password is {v}", "network {ssid}, password {v}",
                 "guest wifi {ssid} pw {v}", "{ssid} -> {v}", "Grandma's wifi password: {v}",
                 "at the cabin the wifi ({ssid}) key is {v}"], dict(ssid=ssid), parts=parts)


def S_vpn_password(lg):
    d = L[lg]
    svc = ch(VPNS)
    v, parts = any_password()
    u = ch(ASCII_NAMES)[0] + ch(["smith", "novak", "garcia", "kim", "tanaka", "yilmaz", "mwangi"]) + ch(["", "@corp.example", "01"])
    return subj("vpn_password", lg, "VPN " + d["n"]["pw"], v, "password", "pw",
                [("svc", None, svc, False), ("user", d["n"]["user"], u, False)],
                ["work VPN ({svc}): {user} / {v}", "VPN password is {v}", "{svc} login {user} pass {v} — expires in 90 days",
                 "remote access from home: user {user}, password {v}"], dict(svc=svc, user=u), parts=parts)


def S_router_admin(lg):
    d = L[lg]
    u = ch(["admin", "admin", "root", "user"])
    v, parts = any_password()
    ip = ch(["192.168.1.1", "192.168.0.1", "fritz.box", "10.0.0.1", "192.168.178.1"])
    return subj("router_admin", lg, "router " + d["n"]["pw"], v, "password", "pw",
                [("where", None, ip, False), ("user", d["n"]["user"], u, False)],
                ["router admin page {ip} — {user} / {v}", "router login is {user} and the password is {v}",
                 "modem admin pw: {v}", "to change the wifi go to {ip}, log in as {user} with {v}"],
                dict(ip=ip, user=u), parts=parts)


def S_school_portal(lg):
    d = L[lg]
    svc = d["school"]
    who = ch(d["names"][2:])
    v, parts = pw_weak() if chance(0.6) else (pw_medium(), None)
    u = ch(ASCII_NAMES) + "." + ch(["k", "m", "s"]) + str(rng.randint(2008, 2019))
    return subj("school_portal", lg, svc + " " + d["n"]["pw"], v, "password", "pw",
                [("who", None, who, False), ("user", d["n"]["user"], u, False)],
                ["{who}'s school portal login: {user} / {v}", "school portal password for {who} is {v} (user {user})",
                 "{who} — homework site: {user} {v}"], dict(who=who, user=u), parts=parts)


def S_login_pair(lg):
    d = L[lg]
    svc = ch(SITES)
    v, parts = any_password()
    u = user_for(lg)
    sep = ch([" / ", ":", " | ", "  ", " - "])
    return subj("login_pair", lg, d["n"]["pw"], v, "password", "pw",
                [("svc", None, svc, False), ("user", d["n"]["user"], u, False)],
                ["{svc}: {user} / {v}", "{svc} login — {user}:{v}", "u: {user} p: {v} ({svc})",
                 "{svc} username {user} password {v}", "{user}" + sep + "{v}   ({svc})", "login {user} pw {v} for {svc}"],
                dict(svc=svc, user=u), parts=parts)


def S_passphrase(lg):
    v = passphrase()
    svc = ch(["Bitwarden", "1Password", "KeePass", "the laptop disk encryption", "the backup drive", "LastPass", "VeraCrypt volume"])
    return subj("passphrase", lg, extra_noun("masterpw", lg), v, "password", None,
                [("svc", None, svc, False)],
                ["{svc} master password: {v}", "passphrase for {svc} is {v}", "if something happens to me, {svc} opens with: {v}"],
                dict(svc=svc))


def S_bank_login(lg):
    d = L[lg]
    bank = ch(d["banks"])
    u = digits(rng.randint(7, 10)) if chance(0.6) else user_for(lg)
    v, parts = any_password() if chance(0.6) else (pin(ch([5, 6, 8])), None)
    return subj("bank_login", lg, bank + " " + d["n"]["pw"], v, "password", "pw",
                [("user", d["n"]["user"], u, False)],
                ["{bank} online banking: customer no. {user}, password {v}", "{bank} login {user} / {v}",
                 "{bank} app — ID {user}, passcode {v}", "online banking ({bank}) user {user} pw {v}"],
                dict(bank=bank, user=u), parts=parts)


def S_card_pin(lg):
    d = L[lg]
    bank = ch(d["banks"])
    last4 = digits(4)
    v = pin(ch([4, 4, 4, 6]))
    return subj("card_pin", lg, d["n"]["cardpin"], v, "pin", "cardpin",
                [("svc", None, bank, False)],
                ["PIN for my {bank} card is {v}", "card PIN {v}", "the debit card PIN: {v}", "{bank} card ending {last4}, PIN {v}",
                 "Dad's ATM card PIN is {v}, he asked me to keep it"], dict(bank=bank, last4=last4))


def S_sim_pin(lg):
    d = L[lg]
    v = pin(4)
    puk = digits(8)
    kind_puk = chance(0.4)
    if kind_puk:
        return subj("sim_puk", lg, extra_noun("puk", lg), puk, "pin", None, [("svc", None, ch(["Vodafone", "O2", "Orange", "Turkcell", "MTS", "Jio", "Safaricom", "Telkomsel", "SK텔레콤", "docomo"]), False)],
                    ["PUK code {v}", "if the SIM locks, the PUK is {v}", "SIM card PUK: {v}"], dict())
    return subj("sim_pin", lg, extra_noun("simpin", lg), v, "pin", None, [("puk", "PUK", puk, True)],
                ["SIM PIN {v}", "phone SIM pin is {v}, PUK {puk}", "new SIM: PIN {v}"], dict(puk=puk))


def S_phone_unlock(lg):
    dev = ch(["iPhone", "Pixel", "Galaxy", "iPad", "Xiaomi", "tablet", "Kindle"])
    v = pin(ch([4, 6, 6]))
    return subj("phone_unlock", lg, extra_noun("unlock", lg), v, "pin", None, [("svc", None, dev, False)],
                ["my phone passcode is {v}", "{dev} unlock code: {v}", "Mum's {dev} passcode {v}"], dict(dev=dev))


def _code(kind, lg, x, en, ndig=(4, 4, 5, 6), hashy=0.25, nk=None, ctx=None, f=None):
    raw = digits(ch(list(ndig)))
    v = raw
    if chance(hashy):
        v = ch(["{}#", "*{}", "{}#", "#{}", "{}✓", "{}*"]).format(raw)
    return subj(kind, lg, x, v, "code", nk, ctx, en, f, raw=raw)


def S_door_code(lg):
    return _code("door_code", lg, L[lg]["n"]["door"], ["front door code {v}", "the door code is {v}", "building entrance code {v}",
                                                       "keypad at the back door: {v}", "door at Mum's new flat opens with {v}"], nk="door")


def S_gate_code(lg):
    return _code("gate_code", lg, L[lg]["n"]["gate"], ["gate code is {v}", "community gate: {v}", "the gate opens with {v}",
                                                       "allotment gate {v}"], nk="gate")


def S_garage_code(lg):
    return _code("garage_code", lg, extra_noun("garage", lg), ["garage keypad {v}", "garage door code: {v}"])


def S_lockbox_code(lg):
    return _code("lockbox_code", lg, extra_noun("lockbox", lg), ["key safe by the door, code {v}", "the lockbox code is {v}",
                                                                  "Airbnb key box: {v}", "the cleaner uses the key safe — {v}"], ndig=(3, 4, 4))


def S_intercom_code(lg):
    apt = str(rng.randint(1, 120))
    return _code("intercom_code", lg, extra_noun("intercom", lg), ["intercom code {v}", "at the intercom dial {v}",
                                                                    "entry phone code: {v} (flat {apt})"], hashy=0.4,
                 ctx=[("room", None, ch(["#", "No. ", "apt "]) + apt, False)], f=dict(apt=apt))


def S_alarm_code(lg):
    return _code("alarm_code", lg, L[lg]["n"]["alarm"], ["alarm code {v}", "to disarm the alarm type {v}",
                                                         "the house alarm code is {v}, you have 30 seconds"], nk="alarm")


def S_safe_code(lg):
    return _code("safe_code", lg, L[lg]["n"]["safe"], ["the safe code is {v}", "hotel room safe: {v}", "safe combo {v}",
                                                       "gun safe in the basement — {v}"], hashy=0.1, nk="safe")


def S_parental_pin(lg):
    return _code("parental_pin", lg, extra_noun("parental", lg), ["parental controls PIN on the TV is {v}", "Netflix kids profile lock: {v}",
                                                                   "the Switch parental PIN is {v}"], ndig=(4, 4, 4, 6), hashy=0.0)


def S_lock_combo(lg):
    n = ch([3, 3, 4, 4, 5])
    raw = digits(n)
    v = ch([raw, "-".join(raw), " ".join(raw)])
    what = ch(["bike lock", "suitcase", "gym locker", "padlock", "shed lock", "school locker"])
    return subj("lock_combo", lg, L[lg]["n"]["combo"], v, "combo", "combo", [("svc", None, what, False)],
                ["{what} combo {v}", "combination for the {what}: {v}", "{what} is {v}"], dict(what=what), raw=raw)


EN_Q = ["name of your first pet?", "mother's maiden name?", "city where you were born?", "name of your first school?",
        "favourite teacher?", "street you grew up on?", "first car?"]


def S_security_answer(lg):
    d = L[lg]
    r = rng.randrange(3)
    if r == 0:
        q, v = d["n"]["qpet"], ch(PETS)
    elif r == 1:
        q, v = d["n"]["qmother"], ch(d["surn"])
    else:
        q = ch(EN_Q[2:]) if lg == "en" else ch([d["n"]["qpet"], d["n"]["qmother"]])
        v = ch(d["cities"] + d["streets"]) if lg == "en" else ch(PETS + d["surn"])
    bank = ch(d["banks"])
    return subj("security_answer", lg, q, v, "answer", None, [("svc", None, bank, False)],
                ["security question: {q} answer: {v}", "{q} -> {v}", "for the {bank} security question ({q}) I put {v}",
                 "Q: {q} A: {v}"], dict(q=q, bank=bank))


def S_backup_codes(lg):
    svc = ch(["Google", "GitHub", "Microsoft", "Facebook", "Instagram", "Dropbox", "Discord", "Twitch", "Proton", "Steam"])
    codes = backup_codes()
    v = ch([", ", "  ", " | ", "; "]).join(codes)
    return subj("backup_codes", lg, L[lg]["n"]["codes"], v, "codes", "codes", [("svc", None, svc, False)],
                ["{svc} backup codes: {v}", "2FA recovery codes for {svc}: {v}", "one-time backup codes ({svc}) — {v}"], dict(svc=svc))


def S_recovery_code(lg):
    svc = ch(["Apple ID", "BitLocker", "FileVault", "Microsoft account", "Bitwarden", "Samsung account", "Ledger"])
    v = recovery_key()
    return subj("recovery_code", lg, extra_noun("recovery", lg), v, "codes", None, [("svc", None, svc, False)],
                ["{svc} recovery key: {v}", "recovery code for {svc}: {v}", "if I get locked out of {svc}: {v}"], dict(svc=svc))


def S_seed_phrase(lg):
    n = ch([12, 12, 24])
    ws = [ch(SEED_WORDS) for _ in range(n)]
    v = " ".join(ws)
    svc = ch(["MetaMask", "Ledger", "Trust Wallet", "Exodus", "Electrum"])
    return subj("seed_phrase", lg, extra_noun("seed", lg), v, "codes", None, [("svc", None, svc, False)],
                ["wallet recovery phrase: {v}", "seed words for the {svc} wallet: {v}", "{svc} 12/24 words, in order: {v}"], dict(svc=svc))


def S_card_number(lg):
    d = L[lg]
    num, brand = card_number()
    assert luhn_ok(num) and num not in TEST_CARDS
    v = fmt_card(num)
    exp = expiry()
    cvv = digits(4 if brand == "amex" else 3)
    bname = {"visa": "Visa", "mc": "Mastercard", "amex": "Amex", "discover": "Discover", "jcb": "JCB", "unionpay": "UnionPay"}[brand]
    ctx = [("svc", None, bname, False), ("exp", ch(["exp", "valid thru", "MM/YY"]), exp, False)]
    if chance(0.5):
        ctx.append(("cvv", ch(["CVV", "CVC", "cvv"]), cvv, True))
    return subj("card_number", lg, d["n"]["card"], v, "card", "card", ctx,
                ["my {svc} card: {v} exp {exp}", "card number {v}, expires {exp}, CVV {cvv}", "{svc} {v} {exp} {cvv}",
                 "use the card {v} (exp {exp}) for the booking", "Dad's {svc}: {v}, valid until {exp}, code on the back {cvv}"],
                dict(svc=bname, exp=exp, cvv=cvv), raw=num)


SECRET_KINDS = [
    (S_email_password, 7), (S_streaming_password, 6), (S_social_password, 4), (S_wifi_password, 8),
    (S_vpn_password, 4), (S_router_admin, 3), (S_school_portal, 3), (S_login_pair, 7), (S_passphrase, 3),
    (S_bank_login, 5), (S_card_pin, 6), (S_sim_pin, 4), (S_phone_unlock, 4), (S_door_code, 6), (S_gate_code, 3),
    (S_garage_code, 2), (S_lockbox_code, 3), (S_intercom_code, 3), (S_alarm_code, 4), (S_safe_code, 3),
    (S_parental_pin, 2), (S_lock_combo, 4), (S_security_answer, 5), (S_backup_codes, 3), (S_recovery_code, 3),
    (S_seed_phrase, 2), (S_card_number, 8),
]


# ---------------------------------------------------------------------------
# Benign subjects (no generator here ever sees a credential value)
# ---------------------------------------------------------------------------
def bsubj(kind, lg, x, v, fk, nk=None, ctx=None, en=None, f=None):
    return subj(kind, lg, x, v, fk, nk, ctx, en, f)


def tsubj(kind, lg, text):
    return dict(kind=kind, lang=lg, text=text, x=None, v=None, raw=None, ctype="text", fk="note", nk=None, ctx=[], en=[], f={}, parts=None)


def who(lg):
    return ch(L[lg]["names"])


def B_order_number(lg):
    shop = ch(L[lg]["shops"])
    return bsubj("order_number", lg, L[lg]["n"]["order"], order_no(shop), "order", "order", [("shop", None, shop, False)],
                 ["{shop} order {v} arrives Thursday", "order number {v} ({shop}) — return window ends on the 30th",
                  "my {shop} order is {v}, the blue one"], dict(shop=shop))


def B_tracking_number(lg):
    car = ch(CARRIERS)
    return bsubj("tracking_number", lg, L[lg]["n"]["tracking"], tracking_no(), "tracking", "tracking", [("carrier", None, car, False)],
                 ["{carrier} tracking: {v}", "parcel from Aunt Jo, tracking number {v}", "tracking {v} — left with the neighbour at no. 12"],
                 dict(carrier=car))


def B_booking_ref(lg):
    fl, air = flight_no()
    hotel = chance(0.35)
    v = digits(rng.randint(8, 10)) if hotel else pnr()
    ctxname = ch(["Booking.com", "Hotel Aurora", "Airbnb", "Ibis"]) if hotel else air
    return bsubj("booking_ref", lg, L[lg]["n"]["booking"], v, "booking", "booking", [("svc", None, ctxname, False)],
                 ["booking ref {v} ({svc})", "{svc} booking reference {v}", "PNR {v} for the Lisbon trip",
                  "confirmation number {v} — check-in from 15:00", "{svc} reservation: {v}, 2 adults"], dict(svc=ctxname))


def B_flight_info(lg):
    fl, air = flight_no()
    s, g = seat(), airport_gate()
    t = "%02d:%02d" % (rng.randint(5, 22), ch([0, 5, 15, 20, 35, 40, 50]))
    return bsubj("flight_info", lg, L[lg]["n"]["flight"], fl, "flight", "flight",
                 [("seat", ch(["seat", "Sitz", "siège", "asiento", "место", "座位", "座席", "좌석", "koltuk"]), s, False),
                  ("gate", "gate", g, False), ("time", None, t, False)],
                 ["flight {v}, seat {seat}, gate {gate}, boarding {t}", "{air} {v} — gate {gate}, we're in {seat}",
                  "Mum lands on {v} at {t}", "{v} to Istanbul, seat {seat}"], dict(seat=s, gate=g, t=t, air=air))


def B_room_number(lg):
    v = ch([str(rng.randint(101, 1299)), "Apt " + str(rng.randint(1, 30)) + ch("ABCD"), str(rng.randint(1, 40)) + "/" + str(rng.randint(1, 9)), "Zi. " + str(rng.randint(1, 400))])
    place = ch(["Hotel Aurora", "the hostel", "Grandpa's ward", "the dorm", "Marriott", "Uncle Ali's building"])
    return bsubj("room_number", lg, L[lg]["n"]["room"], v, "room", "room", [("where", None, place, False)],
                 ["we're in room {v} at {place}", "{place}: room {v}, 4th floor", "Grandpa moved to room {v}"], dict(place=place))


def B_phone_number(lg):
    w = who(lg)
    return bsubj("phone_number", lg, L[lg]["n"]["phone"], phone_no(lg), "phone", "phone", [("who", None, w, False)],
                 ["{who}'s new number: {v}", "plumber {v} (ask for Dave)", "{who} — mobile {v}", "call the vet on {v} after 8"], dict(who=w))


def B_email_address(lg):
    w = who(lg)
    return bsubj("email_address", lg, ch(["e-mail", "email", "E-Mail", "📧"]), email_addr(lg), "email", None, [("who", None, w, False)],
                 ["{who}'s email is {v}", "send the photos to {v}", "school office: {v}"], dict(who=w))


def B_street_address(lg):
    w = who(lg)
    return bsubj("street_address", lg, L[lg]["n"]["address"], address(lg), "address", "address", [("who", None, w, False)],
                 ["{who}'s new address: {v}", "party at {v}, 7pm", "ship it to {v}"], dict(who=w))


def B_birthday(lg):
    w = who(lg)
    return bsubj("birth_date", lg, L[lg]["n"]["birthday"], date_str(lg), "birthday", "birthday", [("who", None, w, False)],
                 ["{who}'s birthday is {v}", "don't forget {who} — {v}", "{who} born {v}, likes orchids"], dict(who=w))


def B_iban(lg):
    w = who(lg)
    return bsubj("iban_account", lg, "IBAN", iban(), "iban", None, [("who", None, w, False)],
                 ["{who}'s IBAN for the rent: {v}", "pay the nursery to {v}", "IBAN {v} (reference: June swim lessons)"], dict(who=w))


def B_national_id(lg):
    if chance(0.25):
        label, v = ch(["passport no.", "Reisepass", "passeport", "pasaporte", "паспорт", "护照号", "旅券番号", "여권번호"]), upper_alnum(2, "ABCDEFGHJKLMNPRSTUVWXYZ") + digits(7)
    else:
        label, v = national_id(lg)
    w = who(lg)
    return bsubj("national_id", lg, label, v, "id", None, [("who", None, w, False)],
                 ["{who}'s {label}: {v}", "{label} {v} (needed for the visa form)", "for the school form — {who}, {label} {v}"],
                 dict(who=w, label=label))


def B_medical(lg):
    w = who(lg)
    if chance(0.5):
        return bsubj("medical_info", lg, L[lg]["n"]["allergy"], ch(ALLERGENS), "allergy", "allergy", [("who", None, w, False)],
                     ["{who} is allergic to {v}", "allergy: {v} (EpiPen in the blue bag)", "no {v} for {who}!"], dict(who=w))
    return bsubj("medical_info", lg, L[lg]["n"]["medication"], ch(DRUGS), "medication", "medication", [("who", None, w, False)],
                 ["{who} takes {v}", "prescription renewed: {v}", "Dad's meds — {v}"], dict(who=w))


def B_loyalty_number(lg):
    prog = ch(["Miles&More", "Flying Blue", "IKEA Family", "Payback", "Tesco Clubcard", "Starbucks", "Nectar", "Boots Advantage", "Decathlon", "Lidl Plus"])
    return bsubj("loyalty_number", lg, L[lg]["n"]["member"], digits(rng.randint(8, 16)), "member", "member", [("svc", None, prog, False)],
                 ["{svc} card no. {v}", "my {svc} number is {v}", "{svc}: {v} (points expire in March)"], dict(svc=prog))


INVOICE_X = {"en": "invoice no.", "de": "Rechnungsnr.", "fr": "facture n°", "es": "factura n.º", "it": "fattura n.", "pt": "nota fiscal nº",
             "ru": "счёт №", "pl": "faktura nr", "tr": "fatura no", "zh": "发票号", "ja": "請求書番号", "ko": "청구서 번호", "nl": "factuurnummer"}


def B_invoice_number(lg):
    v = ch(["INV-", "RE-", "F", "#", ""]) + str(rng.randint(2019, 2025)) + "-" + digits(rng.randint(3, 6))
    who_ = ch(["plumber", "electrician", "the kindergarten", "the dentist", "the landlord", "the garage"])
    return bsubj("invoice_number", lg, INVOICE_X.get(lg, "invoice no."), v, "invoice", None, [("who", None, who_, False)],
                 ["invoice {v} from {who} — due on the 15th", "paid {who}, invoice {v}", "{who} invoice {v}, keep for taxes"], dict(who=who_))


def B_price(lg):
    cur = L[lg]["cur"]
    item = ch(["🥦", "🛒", "👟", "🧥", "📚", "☕", "🚲"])
    amt = "%d.%02d" % (rng.randint(1, 300), rng.randint(0, 99)) if cur not in ("円", "원", "₫", "Rp", "تومان", "Ft") else str(rng.randint(5, 900) * 100)
    v = ch([cur + " " + amt, amt + " " + cur])
    return bsubj("price_paid", lg, item, v, "price", None, [], ["the {item} cost {v}", "paid {v} at the market", "split the bill: {v} each"], dict(item=item))


def B_appointment(lg):
    what = ch(["🦷", "👁️", "💇", "🩺", "🐶 vet", "🚗 MOT", "parent-teacher"])
    v = "%s %02d:%02d" % (date_recent(lg) if chance(0.4) else ch(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]), rng.randint(7, 19), ch([0, 15, 30, 45]))
    return bsubj("appointment_time", lg, what, v, "time", None, [], ["{what} appointment {v}", "{what} moved to {v}"], dict(what=what))


def B_bus_route(lg):
    r = ch(["", "N", "M", "X", "S"]) + str(rng.randint(1, 399))
    stop = ch(L[lg]["streets"])
    return bsubj("bus_route", lg, "🚌", r + " → " + stop, "route", None, [("time", None, "%02d:%02d" % (rng.randint(6, 22), rng.randint(0, 59)), False)],
                 ["take bus {v}", "school bus {v}, get off after 6 stops", "night bus {v}"], {})


def B_measurement(lg):
    w = who(lg)
    v = ch(["%d cm" % rng.randint(80, 195), "EU %d" % rng.randint(24, 46), "%d kg" % rng.randint(12, 95), "%d × %d cm" % (rng.randint(40, 240), rng.randint(40, 240)), "size %s" % ch(["S", "M", "L", "XL", "128", "140"])])
    return bsubj("body_measurement", lg, ch(["📏", "👕", "👟", "⚖️", "🛏️"]), v, "size", None, [("who", None, w, False)],
                 ["{who}: {v}", "{who}'s size is {v}", "window is {v}"], dict(who=w))


def B_score(lg):
    a, b = who(lg), who(lg)
    v = "%d : %d" % (rng.randint(0, 400), rng.randint(0, 400))
    return bsubj("game_score", lg, ch(["🎲 Scrabble", "🏓", "⚽", "Uno", "Catan", "🎳"]), v, "score", None, [("who", None, a + " vs " + b, False)],
                 ["{game} last night: {v}", "{game} final {v}, rematch Friday"], dict(game=ch(["Scrabble", "Monopoly", "Catan", "bowling"])))


EN_SENT = {
    "software_version": ["Laptop is on macOS {a}.{b}.{c}, Chrome {d}.0.{e}.{f}", "the TV needs firmware {a}.{b}.{c} before the app works",
                         "Mum's phone runs Android {a}, WhatsApp {a}.{d}.{b}", "printer driver v{a}.{b} fixed the issue"],
    "recipe": ["pancakes: {a}00 g flour, {b} eggs, {c}00 ml milk, pinch of salt", "bread: 500 g flour, 3{b}0 ml water, {c} g yeast, bake {d}0 min at 2{b}0°C",
               "Grandma's soup: {b} carrots, {c} potatoes, 1 onion, simmer {d}0 minutes"],
    "parking_spot": ["parked on level {b}, spot {L}-{d}{e}{f}", "car is in row {L}{b}, near the lifts", "parking permit zone {L}{c}, valid till Friday"],
}


def B_sentence(kind):
    def gen(lg):
        t = ch(EN_SENT[kind])
        t = t.format(a=rng.randint(1, 17), b=rng.randint(1, 9), c=rng.randint(1, 9), d=rng.randint(1, 9), e=rng.randint(0, 9),
                     f=rng.randint(0, 9), L=ch("ABCDEFG"))
        return tsubj(kind + "_note", lg, t)
    return gen


MED_SENT = {
    "en": ["{w} takes {drug}.", "{w} is allergic to {allergen}; carry the EpiPen.", "Blood type {bt}, no known allergies besides {allergen}."],
    "de": ["{w} nimmt {drug}.", "{w} ist allergisch gegen {allergen}.", "Blutgruppe {bt}."],
    "fr": ["{w} prend {drug}.", "{w} est allergique à : {allergen}.", "Groupe sanguin {bt}."],
    "es": ["{w} toma {drug}.", "{w} es alérgica a: {allergen}.", "Grupo sanguíneo {bt}."],
    "ru": ["{w} принимает {drug}.", "У {w} аллергия: {allergen}.", "Группа крови {bt}."],
    "tr": ["{w} {drug} kullanıyor.", "{w}: {allergen} alerjisi var.", "Kan grubu {bt}."],
    "ja": ["{w}は{drug}を服用中。", "{w}は{allergen}アレルギー。", "血液型{bt}。"],
    "zh": ["{w}在吃{drug}。", "{w}对{allergen}过敏。", "血型{bt}。"],
    "hi": ["{w} {drug} लेते हैं।", "{w} को {allergen} से एलर्जी है।", "ब्लड ग्रुप {bt}।"],
    "ar": ["{w} يأخذ {drug}.", "{w} عنده حساسية من {allergen}.", "فصيلة الدم {bt}."],
    "sw": ["{w} anatumia {drug}.", "{w} ana mzio wa {allergen}.", "Kundi la damu {bt}."],
    "id": ["{w} minum {drug}.", "{w} alergi {allergen}.", "Golongan darah {bt}."],
}


def B_med_sentence(lg):
    t = ch(MED_SENT[lg]).format(w=who(lg), drug=ch(DRUGS), allergen=ch(ALLERGENS), bt=ch(["A+", "0−", "B+", "AB+", "O+", "A−"]))
    return tsubj("medical_info", lg, t)


# ---- hard benign look-alikes ------------------------------------------------
def B_promo_code(lg):
    shop = ch(L[lg]["shops"] + ["Uber Eats", "Zara", "Nike", "Deliveroo"])
    v = ch(["SUMMER", "WELCOME", "SAVE", "BACK2SCHOOL", "FREESHIP", "BF", "HELLO", "SPRING", "VIP"]) + str(ch([5, 10, 15, 20, 25, 30, 50, 2025]))
    pct = ch(["10%", "15%", "20%", "free delivery", "€5 off"])
    return bsubj("promo_code", lg, ch(["promo code", "discount code", "Rabattcode", "code promo", "cupón", "промокод", "kupon", "优惠码", "クーポンコード", "할인 코드", "kode promo"]),
                 v, "promo", None, [("shop", None, shop, False)],
                 ["{shop} promo code {v} = {pct}", "use code {v} at checkout on {shop}", "discount code for {shop}: {v} (expires Sunday)"], dict(shop=shop, pct=pct))


def B_gift_card_balance(lg):
    cur = L[lg]["cur"]
    shop = ch(["Amazon", "IKEA", "Apple", "Steam", "Zalando", "Google Play", "Starbucks"])
    v = ("%s %d.%02d" % (cur, rng.randint(1, 150), rng.randint(0, 99)) if cur not in ("円", "원", "₫", "Rp", "تومان", "Ft")
         else "%d %s" % (rng.randint(5, 900) * 100, cur))
    return bsubj("gift_card_balance", lg, shop + " 🎁", v, "balance", None, [],
                 ["{shop} gift card balance {v}", "{shop} voucher from Grandma — {v} left", "remaining on the {shop} gift card: {v}"], dict(shop=shop))


def B_card_last4(lg):
    bank = ch(L[lg]["banks"])
    l4 = digits(4)
    v = ch(["•••• " + l4, "ending " + l4, "**** **** **** " + l4, "xxxx-" + l4, "…" + l4])
    return bsubj("card_last4", lg, L[lg]["n"]["card"], v, "card", "card", [("svc", None, bank, False)],
                 ["the {bank} card {v} was charged twice", "Netflix is billed to the card {v}", "new card {v} arrives next week, old one cancelled",
                  "which card did I use? {v}"], dict(bank=bank))


MASKS = ["********", "••••••", "****", "xxxx", "XXXX", "[hidden]", "(redacted)", "●●●●●●●●", "<hidden>", "******** (changed)", "— not stored here —"]
PLACEHOLDERS = ["<your password>", "{{PASSWORD}}", "YOUR_PASSWORD_HERE", "[ask Mum]", "TBD", "(same as the old one? ask Dad)", "?",
                "<PIN>", "${WIFI_PASS}", "[see the paper in the drawer]", "…", "(on the router sticker)", "n/a", "(Anna knows it)",
                "ask at reception", "printed on the booking email", "in the family 1Password vault"]
CRED_NKEYS = ["pw", "wifi", "pin", "cardpin", "door", "gate", "alarm", "safe", "combo", "codes", "card"]


NK_FK = {"pw": "password", "wifi": "password", "pin": "pin", "cardpin": "pin", "door": "code", "gate": "code", "alarm": "code",
         "safe": "code", "combo": "combo", "codes": "codes", "card": "card"}


def B_masked_value(lg):
    nk = ch(CRED_NKEYS)
    return bsubj("masked_value", lg, L[lg]["n"][nk], ch(MASKS), NK_FK[nk], nk, [("svc", None, ch(SITES + STREAMING + L[lg]["banks"]), False)] if chance(0.5) else [],
                 [], {})


def B_placeholder(lg):
    nk = ch(CRED_NKEYS)
    return bsubj("placeholder_value", lg, L[lg]["n"][nk], ch(PLACEHOLDERS), NK_FK[nk], nk, [("svc", None, ch(SITES + STREAMING + L[lg]["banks"]), False)] if chance(0.4) else [],
                 [], {})


PM = ["1Password", "Bitwarden", "KeePassXC", "iCloud Keychain", "Google Password Manager", "LastPass", "Proton Pass", "Dashlane"]


def B_password_manager_ref(lg):
    nk = ch(["pw", "wifi", "pin", "door", "alarm", "safe"])
    entry = ch(["Home / Router", "Family / Wi-Fi", "Bank – joint", "Kids / School", "Mum's email", "Streaming", "House / Alarm"])
    v = "→ %s: '%s'" % (ch(PM), entry)
    return bsubj("password_manager_ref", lg, L[lg]["n"][nk], v, NK_FK[nk], nk, [],
                 ["all the logins are in {pm}, entry '{e}'", "{x} is saved in {pm} under '{e}' — don't write it here",
                  "shared the '{e}' item with {who} in {pm}"], dict(pm=ch(PM), e=entry, x=L["en"]["n"][nk], who=who(lg)))


EN_CRED_TALK = ["I changed my {svc} password yesterday.", "Remind me to reset the router PIN this weekend.", "The door code is on the note on the fridge.",
                "Need a new {svc} password, the old one leaked in some breach.", "Mum locked herself out of {svc} again, helped her reset it.",
                "Bank says never share the card PIN over the phone — good to know.", "Set up 2FA for {svc}, backup codes printed and in the safe.",
                "Alarm code changes every month, the company texts {who} the new one.", "Ask {who} for the Wi-Fi password when we arrive.",
                "Forgot the gym locker combination, had to get it cut.", "Turn on the PIN for the SIM card on the new phone.",
                "Password for the school portal expired, {who} needs to choose a new one.", "{svc} asked for my password twice, phishing?",
                "Don't write the safe combination anywhere, we agreed to memorise it.", "The verification code from {svc} never arrived, asked to resend."]


def B_credential_talk(lg):
    if lg == "en":
        t = ch(EN_CRED_TALK).format(svc=ch(SITES + STREAMING + ["Gmail", "Outlook"]), who=who(lg))
    else:
        t = ch(L[lg]["nov"])
    return tsubj("credential_talk", lg, t)


HOMONYMS = {
    "en": ["Can you PIN the map of {city} to the top of the chat?", "{w} is making key lime pie for Sunday.", "Flowers as a token of appreciation for {w}?",
           "{w} passed the driving test!! 🎉", "code review with {w} at {t}", "The key to good sourdough is patience — feed it at {t}.",
           "Bowling: knocked down {n} pins in the last frame.", "Lock in the dinner reservation for {t}.", "Safe travels, {w}! Text when you land.",
           "Please pass the message to {w}: dinner at {t}.", "The gate at the allotment is broken again, tell {w}.", "Zip code for {city}? Look it up before posting the card.",
           "Keynote starts at {t}, {w} is presenting.", "Pinned the lasagne recipe in the family group.", "Combination of flavours for the cake: lemon and {n}% dark chocolate.",
           "Access to the beach is via the car park at {t} low tide.", "The token for the laundry machine costs {n}p.", "Card game night at {w}'s, bring snacks."],
    "de": ["Der Schlüssel zu gutem Brot ist Geduld.", "Kannst du die Karte von {city} oben im Chat anpinnen?", "Pass auf dich auf, {w}!"],
    "fr": ["La clé d'une bonne tarte : du beurre froid.", "Épingle la carte de {city} dans le groupe.", "Le code vestimentaire pour samedi : chic décontracté."],
    "es": ["La clave de la paella es no removerla.", "¿Puedes fijar el mapa de {city} en el chat?", "El código de vestimenta es informal."],
    "pt": ["Peguei a senha {n} na fila do banco, ainda faltam umas 12 pessoas.", "A chave do bolo é o forno pré-aquecido.", "Senha do açougue: {n}. Tô esperando."],
    "it": ["La chiave della carbonara è niente panna.", "Metti in evidenza la mappa di {city} nella chat."],
    "ru": ["Ключ к хорошему борщу — время.", "Закрепи карту {city} в чате."],
    "tr": ["İyi çayın şifresi iki kere demlemek.", "Mutluluğun şifresi: erken yatmak 😄", "{city} haritasını sohbete sabitle."],
    "ja": ["美味しいカレーの鍵は玉ねぎ。", "{city}の地図をチャットにピン留めして。"], "zh": ["做好红烧肉的关键是火候。", "把{city}的地图置顶到群里。"],
    "ko": ["맛있는 김치찌개의 비법은 묵은지야.", "{city} 지도 채팅방에 고정해 줘."], "id": ["Kunci sambal enak ada di terasinya.", "Pin peta {city} di grup ya."],
    "vi": ["Bí quyết phở ngon là nước dùng.", "Ghim bản đồ {city} lên nhóm nhé."], "hi": ["अच्छी चाय की चाबी है अदरक।"],
    "ar": ["مفتاح النجاح هو الصبر.", "ثبّت خريطة {city} في المجموعة."], "he": ["המפתח לחלה טובה הוא סבלנות."],
    "pl": ["Kluczem do dobrego żurku jest zakwas."], "nl": ["De sleutel tot goed brood is geduld."], "sv": ["Nyckeln till bra bullar är kardemumma."],
    "sw": ["Ufunguo wa chai nzuri ni tangawizi."], "el": ["Το κλειδί για καλό μουσακά είναι η υπομονή."], "cs": ["Klíčem k dobrému guláši je čas."],
}


def B_homonym(lg):
    t = ch(HOMONYMS[lg]).format(city=ch(L[lg]["cities"]), w=who(lg), t="%d:%02d" % (rng.randint(7, 21), ch([0, 15, 30, 45])), n=rng.randint(2, 99))
    return tsubj("word_lookalike", lg, t)


def B_wifi_network_name(lg):
    ssid = ch(SSIDS)
    v = ssid + ch(["", " (5 GHz)", " — 2.4 GHz for the printer"])
    return bsubj("wifi_network_name", lg, ch(["SSID", "Wi-Fi", "WLAN", "📶", L[lg]["n"]["wifi"].split(" ")[0]]), v, "ssid", None,
                 [("note", None, ch(["🔑 → sticker under the router", "key on the back of the box", "guest network has no password", "ask the host"]), False)] if chance(0.5) else [],
                 ["the Wi-Fi network here is called {v}", "connect to {v}, the password is on the router sticker", "our network shows up as {v}"], {})


def B_password_policy(lg):
    n = rng.randint(8, 16)
    return tsubj("password_policy", lg, ch([
        "New work password rules: at least %d characters, one number, one symbol, changes every 90 days." % n,
        "School portal passwords must be %d+ characters now, {w} has to pick a new one." % n,
        "Bank app wants a %d-digit passcode instead of 4, update it on Friday." % ch([5, 6, 8]),
        "The router admin password can't contain spaces — max %d chars." % (n + 16),
        "Tip from IT: use a passphrase of %d random words instead of a password." % ch([4, 5, 6])]).replace("{w}", who(lg)))


def B_locker_number(lg):
    v = str(rng.randint(1, 400))
    where = ch(["gym", "swimming pool", "station", "school", "office", "ski lodge"])
    return bsubj("locker_number", lg, ch(["locker", "Spind", "casier", "taquilla", "шкафчик", "ロッカー", "사물함", "储物柜", "dolap", "loker"]), "#" + v, "locker", None,
                 [("where", None, where, False)], ["{where} locker number {v}", "my locker at the {where} is {v}, top row"], dict(where=where))


def B_serial_number(lg):
    dev = ch(["MacBook", "washing machine", "e-bike", "boiler", "router", "fridge", "Dyson", "iPad", "camera"])
    v = ch([upper_alnum(12), upper_alnum(2) + digits(8), digits(4) + "-" + upper_alnum(4) + "-" + digits(4), "SN" + digits(10)])
    return bsubj("serial_number", lg, ch(["S/N", "serial", "Seriennummer", "n° de série", "número de serie", "серийный номер", "序列号", "シリアル番号", "시리얼 번호", "model/serial"]),
                 v, "serial", None, [("dev", None, dev, False)],
                 ["{dev} serial number {v} (for the warranty)", "{dev} model {v}, bought 2022", "warranty claim: {dev}, S/N {v}"], dict(dev=dev))


def B_postal_code(lg):
    city = ch(L[lg]["cities"])
    v = digits(5) if chance(0.7) else digits(4)
    return bsubj("postal_code", lg, ch(["zip code", "postcode", "PLZ", "code postal", "código postal", "CAP", "индекс", "邮编", "郵便番号", "우편번호", "posta kodu", "kode pos"]),
                 v, "postcode", None, [("where", None, city, False)], ["zip code for {city} is {v}", "postcode {v} for the parcel form"], dict(city=city))


def B_verification_talk(lg):
    return tsubj("credential_talk", lg, ch(["The SMS code expired before I could type it, requested a new one.",
                                             "Got a login code I didn't ask for from {svc}, ignored it.",
                                             "{svc} now sends a 6-digit code every time, annoying."]).format(svc=ch(SITES + ["the bank", "Gmail"])))


BENIGN_PLAIN_KINDS = [
    (B_order_number, 8), (B_tracking_number, 7), (B_booking_ref, 7), (B_flight_info, 7), (B_room_number, 5), (B_phone_number, 7),
    (B_email_address, 5), (B_street_address, 6), (B_birthday, 6), (B_iban, 5), (B_national_id, 5), (B_medical, 5),
    (B_loyalty_number, 5), (B_invoice_number, 4), (B_price, 4), (B_appointment, 4), (B_bus_route, 3), (B_measurement, 3), (B_score, 3),
    (B_sentence("software_version"), 2), (B_sentence("recipe"), 2), (B_sentence("parking_spot"), 2), (B_med_sentence, 3),
]
BENIGN_LOOKALIKE_KINDS = [
    (B_promo_code, 5), (B_gift_card_balance, 4), (B_card_last4, 6), (B_masked_value, 6), (B_placeholder, 6), (B_password_manager_ref, 5),
    (B_credential_talk, 8), (B_homonym, 7), (B_wifi_network_name, 5), (B_password_policy, 3), (B_locker_number, 3), (B_serial_number, 4),
    (B_postal_code, 3), (B_verification_talk, 2),
]
B_med_sentence.langs = set(MED_SENT)
B_homonym.langs = set(HOMONYMS)
B_password_policy.langs = {"en"}
B_verification_talk.langs = {"en"}
for _g, _w in BENIGN_PLAIN_KINDS:
    if _g.__name__ == "gen":
        _g.langs = {"en"}


# ---------------------------------------------------------------------------
# Field names (shared by both labels)
# ---------------------------------------------------------------------------
FIELD = {
    "password": ["password", "Password", "pass", "pwd", "passwd", "pw", "passwort", "contraseña", "mot_de_passe", "senha", "wachtwoord",
                 "hasło", "пароль", "şifre", "密码", "パスワード", "비밀번호", "kata_sandi", "mat_khau", "סיסמה", "كلمة_المرور", "nenosiri", "parola", "jelszó", "heslo"],
    "pin": ["pin", "PIN", "pin_code", "pinCode", "PIN-Code", "codigo_pin", "пин", "暗証番号", "geheimzahl"],
    "code": ["code", "Code", "access", "entry", "keypad", "codigo", "kod", "код", "コード", "코드", "kode"],
    "combo": ["combo", "combination", "Kombination", "combinación", "шифр", "kombinasi"],
    "answer": ["answer", "a", "Antwort", "respuesta", "réponse", "ответ", "答案", "jawaban"],
    "codes": ["codes", "backup", "recovery", "Codes", "коды", "备用码", "list"],
    "card": ["card", "card_number", "cardNo", "number", "Kartennummer", "tarjeta", "номер_карты", "卡号", "カード番号", "kart_no"],
    "svc": ["service", "app", "site", "account", "Dienst", "servicio", "сервис", "服务", "what"],
    "user": ["user", "username", "login", "email", "Benutzer", "usuario", "identifiant", "логин", "用户名", "ユーザー名", "아이디"],
    "ssid": ["ssid", "network", "wifi_name", "SSID", "Netzwerk", "red", "réseau", "сеть"],
    "exp": ["exp", "expiry", "valid_thru", "Ablauf", "vence", "срок"],
    "cvv": ["cvv", "cvc", "CVV", "security_code"],
    "puk": ["puk", "PUK"],
    "who": ["who", "for", "person", "name", "Name", "nombre", "имя", "名前"],
    "where": ["where", "place", "location", "Ort", "lugar", "место"],
    "order": ["order", "order_no", "orderId", "Order #", "Bestellnummer", "pedido", "commande", "заказ", "订单号", "注文番号"],
    "tracking": ["tracking", "tracking_no", "trackingNumber", "Sendungsnummer", "suivi", "трек", "快递单号"],
    "booking": ["booking", "booking_ref", "pnr", "PNR", "confirmation", "Buchung", "reserva", "бронь", "予約番号"],
    "flight": ["flight", "flight_no", "Flug", "vuelo", "vol", "рейс", "航班"],
    "seat": ["seat", "Sitz", "asiento", "место"], "gate": ["gate", "Gate", "puerta", "выход"],
    "time": ["time", "when", "at", "Zeit", "hora", "время"],
    "phone": ["phone", "mobile", "tel", "Telefon", "teléfono", "телефон", "电话"],
    "email": ["email", "e-mail", "mail", "E-Mail", "correo", "почта"],
    "address": ["address", "addr", "Adresse", "dirección", "адрес", "住所"],
    "birthday": ["birthday", "dob", "bday", "Geburtstag", "cumpleaños", "день_рождения", "生日"],
    "iban": ["iban", "IBAN", "account", "Konto", "cuenta"], "id": ["id_number", "ID", "document", "Ausweis", "documento", "документ"],
    "allergy": ["allergy", "allergies", "Allergie", "alergia", "аллергия", "过敏"], "medication": ["medication", "meds", "dose", "Medikament", "medicamento", "лекарство", "药"],
    "member": ["member_no", "membership", "loyalty", "card_no", "Mitgliedsnummer", "socio"], "invoice": ["invoice", "invoice_no", "Rechnung", "factura"],
    "price": ["price", "amount", "total", "Preis", "precio", "цена"], "route": ["route", "bus", "line", "Linie", "línea"],
    "size": ["size", "height", "Größe", "talla"], "score": ["score", "result", "Ergebnis", "resultado"],
    "promo": ["promo", "coupon", "discount", "Gutschein", "cupón"], "balance": ["balance", "remaining", "Guthaben", "saldo"],
    "note": ["note", "text", "memo", "Notiz", "nota", "заметка", "备注", "メモ", "메모", "catatan", "content", "body"],
    "locker": ["locker", "locker_no", "Spind"], "serial": ["serial", "sn", "serial_no", "S/N", "Seriennummer"],
    "postcode": ["zip", "postcode", "PLZ", "cp", "индекс"], "shop": ["shop", "store", "Shop", "tienda", "магазин"],
    "carrier": ["carrier", "courier", "Versand", "transportista"], "dev": ["device", "Gerät", "model"], "room": ["room", "room_no", "Zimmer", "habitación", "номер"],
}
ENVK = {"password": ["PASS", "PASSWORD", "PWD", "LOGIN_PW", "WIFI_PASS", "MAIL_PASS"], "pin": ["PIN", "PINCODE", "CARDPIN"], "code": ["CODE", "KEYPAD", "ENTRY", "ACCESS"],
        "combo": ["COMBO", "LOCK"], "codes": ["BACKUP", "RECOVERY", "CODES"], "card": ["CARD", "PAN", "CC"], "answer": ["ANSWER", "SEC_A"],
        "order": ["ORDER", "ORDER_ID"], "tracking": ["TRACKING", "PARCEL"], "booking": ["BOOKING", "PNR", "CONFIRMATION"], "flight": ["FLIGHT"],
        "phone": ["PHONE", "MOBILE"], "email": ["EMAIL", "CONTACT"], "iban": ["IBAN"], "member": ["MEMBER", "LOYALTY"]}


def fname(sem, label=None):
    if label and chance(0.35):
        return label
    return ch(FIELD.get(sem, [sem, sem.capitalize(), sem + "_no"]))


def main_fname(S):
    if S.get("x") and chance(0.45):
        return S["x"]
    return ch(FIELD.get(S["fk"], [S["fk"], S["fk"].capitalize(), S["fk"] + "_no"]))


def misspell(w):
    for _ in range(20):
        op = rng.randrange(3)
        i = rng.randrange(1, len(w)) if len(w) > 2 else 1
        if op == 0:
            out = w[:i] + w[i + 1:]
        elif op == 1 and i < len(w) - 1:
            out = w[:i] + w[i + 1] + w[i] + w[i + 2:]
        else:
            out = w[:i] + w[i - 1] + w[i:]
        if out != w and out.lower() != w.lower():
            return out
    return w + w[-1]


# ---------------------------------------------------------------------------
# Plain presentation (shared)
# ---------------------------------------------------------------------------
SENS_KEYS = ("{cvv}", "{puk}")


def stmt(S, shown):
    d = L[S["lang"]]
    main = ch(d["say"] + UNIV_SAY).format(x=S["x"], v=shown)
    heads = [val for sem, lab, val, sens in S["ctx"] if lab is None]
    if heads and chance(0.8):
        h = " ".join(heads)
        main = ch(["{h} — {m}", "{h}: {m}", "{h}, {m}", "({h}) {m}", "{m} ({h})"]).format(h=h, m=main)
    return main


def ctx_extra(S, drop_sensitive):
    return ["%s: %s" % (lab, val) for sem, lab, val, sens in S["ctx"] if lab is not None and not (sens and drop_sensitive)]


def text_lines(S, shown, hard=False):
    if S.get("text"):
        return [S["text"]]
    if S["lang"] == "en" and S["en"] and chance(0.75):
        tpls = [t for t in S["en"] if not (hard and any(k in t for k in SENS_KEYS))]
        if tpls:
            fill = dict(S["f"])
            fill["v"] = shown
            return [ch(tpls).format(**fill)]
    main = stmt(S, shown)
    extra = ctx_extra(S, hard)
    if extra:
        if chance(0.5):
            return [main] + extra
        return [main + ", " + ", ".join(extra)]
    return [main]


def fields_pairs(S, shown, hard=False, main_name=None, extra_main=None):
    pairs = []
    for sem, lab, val, sens in S["ctx"]:
        if sens and hard:
            continue
        pairs.append((fname(sem, lab), val))
    if S.get("text"):
        main = [(fname("note"), S["text"])]
    else:
        main = extra_main or [(main_name or main_fname(S), shown)]
    if chance(0.6):
        pairs = pairs + main
    else:
        pairs = main + pairs
    return pairs


def ack(lg):
    return ch([L[lg]["thx"], "👍", "ok", "🙏", "✅", "ok 👌"])


def chat_from_lines(S, lines):
    lg = S["lang"]
    d = L[lg]
    me, other = d["me"], who(lg)
    text = " ".join(lines) if chance(0.6) else "\n".join(lines)
    r = rng.random()
    if r < 0.4:
        turns = [(me, text)] + ([(other, ack(lg))] if chance(0.6) else [])
    elif r < 0.8:
        turns = [(other, text)] + ([(me, ack(lg))] if chance(0.5) else [])
    else:
        turns = [(other, ch(d["fill"])), (me, text)]
    return turns


def present_plain(S):
    ev = [S["v"]] if S.get("v") else []
    r = rng.random()
    if r < 0.55:
        return ("text", text_lines(S, S["v"])), ev
    if r < 0.8:
        return ("fields", fields_pairs(S, S["v"])), ev
    return ("chat", chat_from_lines(S, text_lines(S, S["v"]))), ev


# ---------------------------------------------------------------------------
# Hard techniques.  Each takes a subject and returns (core, evidence) or None.
# Evidence strings must survive (whitespace-insensitively) in the rendered
# value; for secrets each technique also asserts that decoding gives back the
# credential.  SHARED techniques are used for both labels, SECRET_ONLY only
# for credentials.
# ---------------------------------------------------------------------------
def hint_line(S, enc, hint=None):
    ls = text_lines(S, enc if not hint else enc + " (" + hint + ")", hard=True)
    return ("text", ls)


def t_spelled(S):
    raw = S["raw"]
    if not raw.isdigit() or len(raw) > 20:
        return None
    lg = S["lang"]
    words = L[lg]["digits"]
    sep = ch(["", " ", "、"]) if lg == "zh" else ch([" ", " ", "-", ", "])
    enc = sep.join(words[int(c)] for c in raw)
    back = enc.split(sep) if sep else list(enc)
    assert "".join(str(words.index(w)) for w in back) == raw
    return hint_line(S, enc), [enc]


def _sep_join(S, sep):
    raw = S["raw"]
    if len(raw) > 40 or len(raw) < 3:
        return None
    if any(c in raw for c in set(sep)) or any(c.isspace() for c in raw):
        return None
    enc = sep.join(raw)
    assert enc.split(sep) == list(raw)
    return hint_line(S, enc), [enc]


def t_spaced(S):
    return _sep_join(S, ch([" ", "  "]))


def t_dotted(S):
    return _sep_join(S, ch([".", "·", "•"]))


def t_dashed(S):
    return _sep_join(S, ch(["-", "_", "/"]))


def t_emoji_sep(S):
    return _sep_join(S, ch(["🔸", " ⭐ ", "💙", " 🌸 ", "▪", " 🐾 "]))


def t_reversed(S):
    raw = S["raw"]
    enc = raw[::-1]
    if enc == raw:
        return None
    assert enc[::-1] == raw
    return hint_line(S, enc, L[S["lang"]]["rev"]), [enc]


def t_arith_add(S):
    raw = S["raw"]
    if not raw.isdigit() or raw[0] == "0" or not 3 <= len(raw) <= 9:
        return None
    n = int(raw)
    base = 10 ** (len(raw) - 1)
    a = (n // base) * base if chance(0.6) else rng.randint(1, n - 1)
    b = n - a
    if b <= 0:
        return None
    assert a + b == n
    if S["lang"] == "en" and chance(0.6):
        return ("text", ["my %s is %d plus %d" % (S["x"], a, b)]), [str(a), str(b)]
    return hint_line(S, "%d + %d" % (a, b)), ["%d + %d" % (a, b)]


def t_arith_mul(S):
    raw = S["raw"]
    if not raw.isdigit() or raw[0] == "0" or not 3 <= len(raw) <= 9:
        return None
    n = int(raw)
    m = ch([7, 9, 12, 25, 100, 11])
    q, r = divmod(n, m)
    enc = "%d %s %d + %d" % (q, ch(["×", "*", "x"]), m, r)
    assert q * m + r == n
    return hint_line(S, enc), [enc]


def t_arith_sub(S):
    raw = S["raw"]
    if not raw.isdigit() or raw[0] == "0" or not 3 <= len(raw) <= 9:
        return None
    n = int(raw)
    b = rng.randint(1, 999)
    enc = "%d − %d" % (n + b, b)
    assert (n + b) - b == n
    if S["lang"] == "en" and chance(0.5):
        return ("text", ["%s: take %d and subtract %d" % (S["x"], n + b, b)]), [str(n + b), str(b)]
    return hint_line(S, enc), [enc]


def t_native_digits(S):
    raw = S["raw"]
    if not raw.isdigit():
        return None
    tbl = NATIVE_DIGITS.get(S["lang"], FULLWIDTH_DIGITS)
    enc = "".join(tbl[int(c)] for c in raw)
    assert "".join(str(unicodedata.digit(c)) for c in enc) == raw
    return hint_line(S, enc), [enc]


def t_keycap(S):
    raw = S["raw"]
    if not raw.isdigit() or len(raw) > 12:
        return None
    enc = "".join(c + "\ufe0f\u20e3" for c in raw)
    assert enc.replace("\ufe0f\u20e3", "") == raw
    return hint_line(S, enc), [enc]


ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]


def t_roman(S):
    raw = S["raw"]
    if not raw.isdigit() or "0" in raw or len(raw) > 8:
        return None
    sep = ch([" · ", " - ", ", "])
    enc = sep.join(ROMAN[int(c)] for c in raw)
    assert "".join(str(ROMAN.index(p)) for p in enc.split(sep)) == raw
    return hint_line(S, enc, ch(["I-IX", "roman, 1 digit each", "Ⅰ–Ⅸ"])), [enc]


T9 = {c: str(k) for k, letters in {2: "abc", 3: "def", 4: "ghi", 5: "jkl", 6: "mno", 7: "pqrs", 8: "tuv", 9: "wxyz"}.items() for c in letters}
T9_WORDS = ["cake", "mild", "home", "gold", "bird", "moon", "tree", "lime", "jazz", "wolf", "fish", "snow", "rain", "star", "kiwi",
            "duck", "love", "bear", "milo", "luna", "rosa", "pony", "frog", "taco", "ruby", "yoga", "sofa", "opal", "mango", "tulip",
            "lemon", "olive", "pizza", "honey", "kitty", "panda"]


def t_t9(S):
    if S["fk"] not in ("pin", "code") or S["ctype"] != "digits":
        return None
    w = ch(T9_WORDS)
    newraw = "".join(T9[c] for c in w)
    S["raw"] = S["v"] = newraw
    W = w.upper()
    assert "".join(T9[c] for c in W.lower()) == newraw
    if S["lang"] == "en":
        return ("text", ["%s: spell %s on the keypad" % (S["x"], W)]), [W]
    return hint_line(S, W, "📱 2=ABC … 9=WXYZ"), [W]


def t_per_line(S):
    raw = S["raw"]
    if len(raw) > 24 or len(raw) < 3:
        return None
    return ("text", [S["x"] + ":"] + list(raw)), [raw]


def t_interleave(S):
    raw = S["raw"]
    if len(raw) > 8 or len(raw) < 3 or " " in raw:
        return None
    if S["lang"] == "en":
        enc = "first " + ", then ".join(raw[:-1]) + ", and last " + raw[-1]
        back = enc.replace("first ", "").replace(", and last ", ", then ").split(", then ")
    else:
        enc = " → ".join(raw)
        back = enc.split(" → ")
    assert "".join(back) == raw
    return ("text", [S["x"] + ": " + enc]), [enc]


def t_positions(S):
    raw = S["raw"]
    if len(raw) > 8 or len(raw) < 3:
        return None
    idx = list(range(len(raw)))
    rng.shuffle(idx)
    enc = ", ".join("#%d=%s" % (i + 1, raw[i]) for i in idx)
    back = dict((int(p.split("=")[0][1:]), p.split("=", 1)[1]) for p in enc.split(", "))
    assert "".join(back[i + 1] for i in range(len(raw))) == raw
    return hint_line(S, enc), [enc]


def t_binary(S):
    raw = S["raw"]
    if not raw.isdigit() or len(raw) > 8:
        return None
    enc = " ".join(format(int(c), "04b") for c in raw)
    assert "".join(str(int(b, 2)) for b in enc.split()) == raw
    return hint_line(S, enc, "bin"), [enc]


MORSE = ["-----", ".----", "..---", "...--", "....-", ".....", "-....", "--...", "---..", "----."]


def t_morse(S):
    raw = S["raw"]
    if not raw.isdigit() or len(raw) > 8:
        return None
    enc = " / ".join(MORSE[int(c)] for c in raw)
    assert "".join(str(MORSE.index(m)) for m in enc.split(" / ")) == raw
    return hint_line(S, enc, "morse"), [enc]


def t_date_hint(S):
    raw = S["raw"]
    if not raw.isdigit() or len(raw) != 4:
        return None
    dd, mm = int(raw[:2]), int(raw[2:])
    if not (1 <= dd <= 31 and 1 <= mm <= 12):
        return None
    enc = raw[:2] + "." + raw[2:]
    if S["lang"] == "en":
        return ("text", ["%s = our wedding date %s, without the dot" % (S["x"], enc)]), [enc]
    return hint_line(S, enc, "dd.mm → ddmm"), [enc]


def _ascii(raw):
    return all(32 < ord(c) < 127 for c in raw)


def t_b64(S, said=True):
    raw = S["raw"]
    enc = base64.b64encode(raw.encode()).decode()
    assert base64.b64decode(enc).decode() == raw
    return hint_line(S, enc, "base64" if said else None), [enc]


def t_b64_unsaid(S):
    return t_b64(S, False)


def t_b64_reversed(S):
    raw = S["raw"]
    enc = base64.b64encode(raw[::-1].encode()).decode()
    assert base64.b64decode(enc).decode()[::-1] == raw
    return hint_line(S, enc, "base64, then " + L["en"]["rev"]), [enc]


def t_hex(S):
    raw = S["raw"]
    enc = raw.encode().hex()
    if chance(0.4):
        enc = " ".join(enc[i:i + 2] for i in range(0, len(enc), 2))
    assert bytes.fromhex(enc.replace(" ", "")).decode() == raw
    return hint_line(S, enc, ch(["hex", "utf-8 hex", None])), [enc]


def t_rot13(S):
    raw = S["raw"]
    if sum(c.isascii() and c.isalpha() for c in raw) < 3:
        return None
    enc = codecs.encode(raw, "rot13")
    assert codecs.decode(enc, "rot13") == raw
    return hint_line(S, enc, "rot13"), [enc]


def _shift(s, k):
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + k) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)


def t_caesar(S):
    raw = S["raw"]
    if sum(c.isascii() and c.isalpha() for c in raw) < 3:
        return None
    k = ch([1, 2, 3])
    enc = _shift(raw, k)
    assert _shift(enc, -k) == raw
    h = "each letter moved %d forward in the alphabet" % k if S["lang"] == "en" else "Caesar +%d" % k
    return hint_line(S, enc, h), [enc]


def t_url(S):
    raw = S["raw"]
    enc = urllib.parse.quote(raw, safe="")
    if enc == raw:
        enc = "".join("%%%02X" % b for b in raw.encode())
    assert urllib.parse.unquote(enc) == raw
    return hint_line(S, enc, ch(["url-encoded", "%XX", None])), [enc]


HOMO = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "i": "і", "A": "А", "B": "В", "C": "С", "E": "Е",
        "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "X": "Х", "s": "ѕ", "j": "ј"}
HOMO_BACK = {v: k for k, v in HOMO.items()}


def t_homoglyph(S):
    raw = S["raw"]
    idx = [i for i, c in enumerate(raw) if c in HOMO]
    if not idx:
        return None
    pick = set(i for i in idx if chance(0.6)) or {ch(idx)}
    enc = "".join(HOMO[c] if i in pick else c for i, c in enumerate(raw))
    assert enc != raw and "".join(HOMO_BACK.get(c, c) for c in enc) == raw
    return hint_line(S, enc), [enc]


def t_fullwidth(S):
    raw = S["raw"]
    if not _ascii(raw):
        return None
    enc = "".join(chr(ord(c) + 0xFEE0) for c in raw)
    assert unicodedata.normalize("NFKC", enc) == raw
    return hint_line(S, enc), [enc]


def t_mathbold(S):
    raw = S["raw"]
    if not all(c.isascii() and c.isalnum() for c in raw):
        return None
    base = ch([(0x1D400, 0x1D41A, 0x1D7CE), (0x1D5D4, 0x1D5EE, 0x1D7EC), (0x1D670, 0x1D68A, 0x1D7F6)])

    def m(c):
        if "A" <= c <= "Z":
            return chr(base[0] + ord(c) - 65)
        if "a" <= c <= "z":
            return chr(base[1] + ord(c) - 97)
        return chr(base[2] + ord(c) - 48)
    enc = "".join(m(c) for c in raw)
    assert unicodedata.normalize("NFKC", enc) == raw
    return hint_line(S, enc), [enc]


CIRCLED = "⓪①②③④⑤⑥⑦⑧⑨"


def t_circled(S):
    raw = S["raw"]
    if not raw.isdigit() or len(raw) > 16:
        return None
    enc = "".join(CIRCLED[int(c)] for c in raw)
    assert unicodedata.normalize("NFKC", enc) == raw
    return hint_line(S, enc), [enc]


ZW = ["\u200b", "\u200c", "\u200d", "\u2060"]


def t_zero_width(S):
    raw = S["raw"]
    if len(raw) < 3:
        return None
    z = ch(ZW)
    enc = raw[0] + "".join((z if chance(0.7) else "") + c for c in raw[1:])
    if enc == raw:
        enc = raw[0] + z + raw[1:]
    assert "".join(c for c in enc if c not in ZW) == raw
    return hint_line(S, enc), [enc]


LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


def t_leet_rule(S):
    if S["fk"] != "password":
        return None
    base = ch(WORDS + [p.lower() for p in PETS])
    keys = [k for k in LEET if k in base]
    if not keys:
        return None
    rule = sorted(set(ch(keys) for _ in range(rng.randint(1, 3))))
    cred = "".join(LEET[c] if c in rule else c for c in base)
    suffix = ch(["", "!", "2024", "#1", "99"])
    cred += suffix
    S["raw"] = S["v"] = cred
    rs = ", ".join("%s→%s" % (k, LEET[k]) for k in rule)
    assert "".join(LEET[c] if c in rule else c for c in base) + suffix == cred
    if S["lang"] == "en":
        line = "%s: %s but with %s%s" % (S["x"], base, rs, (" and " + suffix + " at the end") if suffix else "")
    else:
        line = "%s: %s (%s)%s" % (S["x"], base, rs, (" + " + suffix) if suffix else "")
    return ("text", [line]), [base, rs] + ([suffix] if suffix else [])


NATO = "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split()


def t_nato(S):
    raw = S["raw"]
    if not all(c.isascii() and c.isalnum() for c in raw) or len(raw) > 14 or not any(c.isalpha() for c in raw):
        return None
    parts = []
    for c in raw:
        if c.isdigit():
            parts.append(c)
        else:
            w = NATO[ord(c.lower()) - 97]
            parts.append(w.upper() if c.isupper() else w)
    enc = " ".join(parts)
    back = "".join(p if p.isdigit() else (p[0].upper() if p.isupper() else p[0]) for p in enc.split())
    assert back == raw
    return hint_line(S, enc, "CAPS = capital"), [enc]


ACRO = {c: ws for c, ws in zip("abcdefghijklmnopqrstuvwxyz", [
    "apples ripen", "bells ring softly", "candles flicker", "dawn arrives", "every star hums", "fog on the lake", "gulls circle",
    "hills turn gold", "ivy climbs", "june is warm", "kites drift", "lanterns glow", "morning tea", "nights grow long",
    "old roads wind", "pines whisper", "quiet rivers", "rain on the roof", "summer fades", "tides return", "under the moon",
    "violets bloom", "winter waits", "xylophone songs", "yellow fields", "zephyrs sigh"])}


def t_acrostic(S):
    raw = S["raw"]
    import re
    m = re.fullmatch(r"([A-Za-z]{3,10})(\d{0,4})", raw)
    if not m:
        return None
    letters, tail = m.group(1), m.group(2)
    lines = []
    for c in letters:
        w = ACRO[c.lower()]
        lines.append(c + w[1:])
    assert "".join(l[0] for l in lines) == letters
    if S["lang"] == "en":
        note = "(%s = first letter of each line%s)" % (S["x"], (", then " + tail) if tail else "")
    else:
        note = "(%s: 1st letters%s)" % (S["x"], (" + " + tail) if tail else "")
    return ("text", lines + [note]), ["".join(lines)] + ([tail] if tail else [])


def t_described_comp(S):
    if not S.get("parts"):
        return None
    a, b = S["parts"]
    assert a + b == S["raw"]
    if S["lang"] == "en":
        line = ch(["%s: the dog's name (%s) followed by the year we got him (%s), no spaces",
                   "%s = our team (%s) + the year we first went to a match (%s)",
                   "%s is name-then-year: %s and %s"]) % (S["x"], a, b)
    else:
        line = "%s: %s + %s (%s)" % (S["x"], a, b, L[S["lang"]]["join"])
    return ("text", [line]), [a, b]


def _chunks(raw):
    if len(raw) < 4:
        return None
    k = 2 if len(raw) < 9 or chance(0.6) else 3
    cuts = sorted(rng.sample(range(1, len(raw)), k - 1))
    parts = [raw[i:j] for i, j in zip([0] + cuts, cuts + [len(raw)])]
    assert "".join(parts) == raw
    return parts


def t_split_halves(S):
    parts = _chunks(S["raw"])
    if not parts:
        return None
    enc = " … ".join("%d) %s" % (i + 1, p) for i, p in enumerate(parts))
    return ("text", ["%s: %s (%s)" % (S["x"], enc, L[S["lang"]]["join"])]), parts


def t_split_fields(S):
    parts = _chunks(S["raw"])
    if not parts:
        return None
    style = rng.randrange(3)
    base = main_fname(S)
    names = [("%s (%d)" % (base, i + 1)) if style == 0 else (["part_a", "part_b", "part_c"][i] if style == 1 else "%s_%d" % (base, i + 1))
             for i in range(len(parts))]
    return ("fields", fields_pairs(S, None, hard=True, extra_main=list(zip(names, parts)))), parts


def t_split_list(S):
    parts = _chunks(S["raw"])
    if not parts:
        return None
    return ("text", [S["x"] + ":"] + ["- " + p for p in parts] + ["(" + L[S["lang"]]["join"] + ")"]), parts


def t_split_messages(S):
    parts = _chunks(S["raw"])
    if not parts:
        return None
    lg = S["lang"]
    d = L[lg]
    a, b = d["me"], who(lg)
    turns = [(a, ch(d["ask"]).format(x=S["x"]))] + [(b, p) for p in parts]
    if chance(0.6):
        turns.append((b, "(" + d["join"] + ")"))
    if chance(0.4):
        turns.append((a, ack(lg)))
    return ("chat", turns), parts


def t_chat_qa(S):
    lg = S["lang"]
    d = L[lg]
    a, b = (d["me"], who(lg)) if chance(0.5) else (who(lg), d["me"])
    turns = []
    if chance(0.4):
        turns.append((a, ch(d["fill"])))
    turns.append((a, ch(d["ask"]).format(x=S["x"])))
    if chance(0.3):
        turns.append((b, ch(["1 sec", "⏳", "…", "wait"])))
    turns.append((b, ch(d["ans"]).format(v=S["v"])))
    if chance(0.5):
        turns.append((a, ack(lg)))
    return ("chat", turns), [S["v"]]


def t_misspelt_field(S):
    base = FIELD.get(S["fk"], [S["fk"]])[0]
    name = misspell(base)
    return ("fields", fields_pairs(S, S["v"], hard=True, main_name=name)), [S["v"]]


def t_foreign_field(S):
    nk = S.get("nk")
    other = ch([c for c in LANGS if c != S["lang"]])
    if nk:
        name = L[other]["n"][nk]
    else:
        name = ch(FIELD.get(S["fk"], [S["fk"]])[1:] or [S["fk"]])
    return ("fields", fields_pairs(S, S["v"], hard=True, main_name=name)), [S["v"]]


def t_md_table(S):
    rows = [(fname(sem, lab), val) for sem, lab, val, sens in S["ctx"] if not sens]
    rows.append((main_fname(S), S["v"]))
    lines = ["| %s | %s |" % (ch(["item", "what", "field", "🔹"]), ch(["value", "details", "info", "→"])), "|---|---|"]
    lines += ["| %s | %s |" % (k, v) for k, v in rows]
    return ("text", lines), [S["v"]]


def t_csv(S):
    cols = [(fname(sem, lab), val) for sem, lab, val, sens in S["ctx"] if not sens] + [(main_fname(S), S["v"])]
    if any("," in v or '"' in v for k, v in cols):
        return None
    row = ",".join(v for k, v in cols)
    lines = [",".join(k for k, v in cols), row] if chance(0.7) else [row]
    return ("text", lines), [S["v"]]


def t_env(S):
    key = ch(ENVK.get(S["fk"], [S["fk"].upper()]))
    lines = ["%s=%s" % ((fname(sem) if chance(0.3) else sem).upper().replace(" ", "_"), val) for sem, lab, val, sens in S["ctx"] if not sens]
    lines.append("%s=%s" % (key, S["v"] if " " not in S["v"] else '"%s"' % S["v"]))
    return ("text", lines), [S["v"]]


def t_yaml(S):
    top = ch(["home", "family", "trip", "misc", "stuff", "casa", "dom"])
    lines = [top + ":"] + ["  %s: %s" % (fname(sem, lab), val) for sem, lab, val, sens in S["ctx"] if not sens]
    lines.append("  %s: %s" % (main_fname(S), json.dumps(S["v"], ensure_ascii=False) if chance(0.5) else S["v"]))
    return ("text", lines), [S["v"]]


def t_url_userinfo(S):
    users = [val for sem, lab, val, sens in S["ctx"] if sem == "user"]
    if not users or S["fk"] != "password":
        return None
    u, raw = users[0], S["raw"]
    host = ch(["nas.local:5000", "192.168.1.20", "mail.example.org", "files.home.arpa", "router.lan", "cloud.familie-b.de"])
    scheme = ch(["https", "http", "ftp", "smb", "webdav"])
    enc = urllib.parse.quote(raw, safe="")
    url = "%s://%s:%s@%s/" % (scheme, urllib.parse.quote(u, safe=""), enc, host)
    assert urllib.parse.unquote(url.split("@")[-2].split(":")[-1]) == raw
    return ("text", [ch(["bookmark:", "link for the NAS:", "🔗", ""]) + " " + url]), [enc]


def t_shell(S):
    users = [val for sem, lab, val, sens in S["ctx"] if sem == "user"]
    if not users or S["fk"] != "password" or "'" in S["raw"]:
        return None
    u, p = users[0], S["raw"]
    cmd = ch(["curl -u '{u}:{p}' https://nas.local/api/photos", "sshpass -p '{p}' ssh {u}@192.168.1.20", "mysql -u {u} -p'{p}' family_db",
              "smbclient //nas/photos -U '{u}%{p}'", "wget --user='{u}' --password='{p}' http://files.home/backup.zip", "net use Z: \\\\nas\\share '{p}' /user:{u}"])
    return ("text", [cmd.format(u=u, p=p)]), [p]


def t_html_ent(S):
    raw = S["raw"]
    enc = "".join("&#%d;" % ord(c) for c in raw) if chance(0.6) else "".join("&#x%x;" % ord(c) for c in raw)
    assert html.unescape(enc) == raw
    return hint_line(S, enc), [enc]


def t_uni_esc(S):
    raw = S["raw"]
    if not _ascii(raw):
        return None
    enc = "".join("\\u%04x" % ord(c) for c in raw)
    assert codecs.decode(enc, "unicode_escape") == raw
    return hint_line(S, enc), [enc]


def t_code_fence(S):
    key = ch(ENVK.get(S["fk"], [S["fk"]])).lower()
    return ("text", ["```", "%s = %s" % (key, S["v"]), "```"]), [S["v"]]


def _mutate(v):
    i = rng.randrange(len(v))
    c = v[i]
    r = ch("0123456789") if c.isdigit() else (ch("abcdefghijkmnpqrstuvwxyz") if c.isalpha() else c + c)
    out = v[:i] + r + v[i + 1:]
    return out if out != v else v + ch("0123456789")


def t_correction(S):
    wrong = _mutate(S["v"])
    if S["lang"] == "en":
        line = "%s: %s — no wait, that was the old one, it's %s" % (S["x"], wrong, S["v"])
    else:
        line = "%s: ~~%s~~ %s" % (S["x"], wrong, S["v"])
    return ("text", [line]), [S["v"]]


def t_forward_quote(S):
    lg = S["lang"]
    d = L[lg]
    inner = text_lines(S, S["v"], hard=True)
    head = ch(["---------- Forwarded message ----------", "Fwd:", d["pre"][-1], "↪"])
    return ("text", [head] + ["> " + l for l in inner] + ["> " + ch(d["names"])]), [S["v"]]


def t_buried(S):
    lg = S["lang"]
    fills = L[lg]["fill"][:]
    rng.shuffle(fills)
    inner = text_lines(S, S["v"], hard=True)
    k = rng.randint(1, min(3, len(fills)))
    lines = fills[:k] + inner + fills[k:k + rng.randint(1, 2)]
    return ("text", lines), [S["v"]]


def t_json_in_string(S):
    if '"' in S["v"] or "\\" in S["v"]:
        return None
    obj = {fname(sem, lab): val for sem, lab, val, sens in S["ctx"] if not sens}
    obj[main_fname(S)] = S["v"]
    return ("text", [ch(["saved as:", "json:", "export →", ""]) + " " + json.dumps(obj, ensure_ascii=False)]), [S["v"]]


SHARED = [t_spelled, t_spaced, t_dotted, t_dashed, t_emoji_sep, t_native_digits, t_keycap, t_per_line, t_interleave, t_fullwidth,
          t_zero_width, t_mathbold, t_circled, t_split_halves, t_split_fields, t_split_list, t_split_messages, t_chat_qa,
          t_misspelt_field, t_foreign_field, t_md_table, t_csv, t_env, t_yaml, t_code_fence, t_correction, t_forward_quote,
          t_buried, t_json_in_string]
SECRET_ONLY = [t_reversed, t_arith_add, t_arith_mul, t_arith_sub, t_roman, t_t9, t_positions, t_binary, t_morse, t_date_hint,
               t_b64, t_b64_unsaid, t_b64_reversed, t_hex, t_rot13, t_caesar, t_url, t_homoglyph, t_leet_rule, t_nato, t_acrostic,
               t_described_comp, t_url_userinfo, t_shell, t_html_ent, t_uni_esc]
SECRET_TECH = SHARED + SECRET_ONLY
BENIGN_TECH = SHARED
assert len(SECRET_TECH) >= 40


# ---------------------------------------------------------------------------
# Rendering with label-neutral wrapping
# ---------------------------------------------------------------------------
NOTE_KEYS = {"en": ["note", "text", "content", "body", "memo"], "de": ["notiz", "text"], "fr": ["note", "texte"], "es": ["nota", "texto"],
             "it": ["nota", "testo"], "pt": ["nota", "texto"], "ru": ["заметка", "текст"], "uk": ["нотатка"], "zh": ["备注", "内容"],
             "ja": ["メモ", "本文"], "ko": ["메모", "내용"], "id": ["catatan"], "vi": ["ghi_chú"], "tr": ["not"], "he": ["הערה"],
             "ar": ["ملاحظة"], "fa": ["یادداشت"], "hi": ["नोट"], "sw": ["kumbukumbu"], "pl": ["notatka"], "nl": ["notitie"], "sv": ["anteckning"]}
SOURCES = ["chat", "voice", "share-sheet", "email-forward", "app", "widget", "import", "sms"]
TAGS = ["personal", "home", "family", "travel", "todo", "kids", "car", "misc", "2025", "phone", "shopping", "health", "work"]


def iso_date():
    return "%d-%02d-%02dT%02d:%02d:00Z" % (rng.randint(2021, 2025), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59))


def meta(lg):
    m = {}
    if chance(0.7):
        m[ch(["created", "created_at", "ts", "updated", "date"])] = iso_date()
    if chance(0.4):
        m["source"] = ch(SOURCES)
    if chance(0.35):
        m["tags"] = sorted(set(ch(TAGS) for _ in range(rng.randint(1, 3))))
    if chance(0.3):
        m["lang"] = lg
    if chance(0.1):
        m["pinned"] = chance(0.5)
    return m


def add_meta(obj, lg):
    if chance(0.45):
        for k, v in meta(lg).items():
            if k not in obj:
                obj[k] = v
    return obj


def uniq_pairs(pairs):
    out, seen = {}, {}
    for k, v in pairs:
        kk = k
        while kk in out:
            seen[k] = seen.get(k, 1) + 1
            kk = "%s_%d" % (k, seen[k])
        out[kk] = v
    return out


def render(core, lg, shape):
    t, data = core
    d = L[lg]
    if t == "text":
        lines = list(data)
        if chance(0.25):
            f = ch(d["fill"])
            if f not in lines:
                lines = lines + [f] if chance(0.5) else [f] + lines
        if chance(0.3):
            lines = [ch(d["pre"])] + lines
        if shape == "string":
            return ("\n" if len(lines) > 1 and chance(0.65) else " ").join(lines)
        if shape == "object":
            return add_meta({ch(NOTE_KEYS.get(lg, []) + NOTE_KEYS["en"]): "\n".join(lines)}, lg)
        r = rng.random()
        if r < 0.55:
            return lines
        if r < 0.8:
            return [{"type": "note", "text": l} for l in lines]
        return [{"role": "user", "content": "\n".join(lines)}]
    if t == "fields":
        pairs = list(data)
        if shape == "string":
            st = rng.randrange(4)
            head = [ch(d["pre"])] if chance(0.3) else []
            if st == 0:
                return "\n".join(head + ["%s: %s" % kv for kv in pairs])
            if st == 1:
                return " ".join(head + ["; ".join("%s=%s" % kv for kv in pairs)])
            if st == 2:
                return " ".join(head + [" | ".join("%s — %s" % kv for kv in pairs)])
            return "\n".join(head + ["• %s: %s" % kv for kv in pairs])
        if shape == "object":
            obj = uniq_pairs(pairs)
            if chance(0.2):
                obj = {ch(["entry", "record", "item", "data", "fields"]): obj}
            return add_meta(obj, lg)
        r = rng.random()
        if r < 0.4:
            return ["%s: %s" % kv for kv in pairs]
        if r < 0.75:
            return [{"field": k, "value": v} for k, v in pairs]
        return [[k, v] for k, v in pairs]
    # chat
    turns = list(data)
    if shape == "string":
        if chance(0.5):
            return "\n".join("%s: %s" % tw for tw in turns)
        h, m = rng.randint(7, 22), rng.randint(0, 50)
        return "\n".join("[%02d:%02d] %s: %s" % (h, m + i, w, x) for i, (w, x) in enumerate(turns))
    msgs_style = rng.randrange(3)
    if msgs_style == 0:
        msgs = [{"from": w, "text": x} for w, x in turns]
    elif msgs_style == 1:
        msgs = [{"sender": w, "msg": x} for w, x in turns]
    else:
        msgs = ["%s: %s" % tw for tw in turns]
    if shape == "object":
        return add_meta({ch(["messages", "conversation", "chat", "thread"]): msgs, ch(["app", "channel"]): ch(["WhatsApp", "Telegram", "Signal", "SMS", "LINE", "KakaoTalk", "WeChat", "iMessage"])}, lg)
    return msgs


def leaves(o):
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for k, v in o.items():
            yield str(k)
            yield from leaves(v)
    elif isinstance(o, list):
        for v in o:
            yield from leaves(v)
    else:
        yield json.dumps(o)


def norm(s):
    return "".join(s.split())


def content_leaves(o):
    """string leaves without dict keys and without structural tags (type/role)"""
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for k, v in o.items():
            if k not in ("type", "role"):
                yield from content_leaves(v)
    elif isinstance(o, list):
        for v in o:
            yield from content_leaves(v)


def survives(value, evidence):
    blobs = [norm("\n".join(leaves(value))), norm("\n".join(content_leaves(value)))]
    return all(any(norm(e) in b for b in blobs) for e in evidence)


def pick_shape():
    r = rng.random()
    return "string" if r < 0.7 else ("object" if r < 0.9 else "array")


def wpick(pairs):
    tot = sum(w for g, w in pairs)
    x = rng.random() * tot
    for g, w in pairs:
        x -= w
        if x < 0:
            return g
    return pairs[-1][0]


def supports(g, lg):
    return lg in getattr(g, "langs", LANGS)


FORBIDDEN = ("secret", "benign")


def leak_free(value, kind):
    blob = "\n".join(leaves(value)).lower()
    return kind.lower() not in blob and not any(w in blob for w in FORBIDDEN)


# ---------------------------------------------------------------------------
# Record makers: one per label
# ---------------------------------------------------------------------------
USED_VALUES = set()
USED_KEYS = set()


def accept(value, kind):
    if not leak_free(value, kind):
        return False
    sig = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if sig in USED_VALUES:
        return False
    USED_VALUES.add(sig)
    return True


TECH_USE = {}


TECH_W = {"t_spelled": 14, "t_spaced": 3, "t_chat_qa": 2, "t_split_messages": 2, "t_split_list": 1.5, "t_arith_add": 5, "t_arith_sub": 3,
          "t_native_digits": 5, "t_homoglyph": 3, "t_leet_rule": 4, "t_acrostic": 4, "t_described_comp": 30, "t_t9": 2, "t_nato": 3,
          "t_rot13": 2, "t_reversed": 1.5, "t_keycap": 2, "t_url_userinfo": 3, "t_shell": 3, "t_misspelt_field": 1.5, "t_foreign_field": 1.5,
          "t_interleave": 2, "t_arith_mul": 2}


def tech_order(techs):
    keyed = [(rng.random() ** (1.0 / TECH_W.get(t.__name__, 1)), i) for i, t in enumerate(techs)]
    keyed.sort(reverse=True)
    return [techs[i] for _, i in keyed]


def make_secret(hard):
    while True:
        lg = pick_lang()
        S = wpick(SECRET_KINDS)(lg)
        assert S["v"] and S["raw"]
        shape = pick_shape()
        if hard:
            techs = tech_order(SECRET_TECH)
            res = None
            for t in techs:
                res = t(S)
                if res:
                    break
            assert res, S
            core, ev = res
            tname = t.__name__
        else:
            core, ev = present_plain(S)
            tname = "plain"
        value = render(core, lg, shape)
        # the credential (or its recoverable encoding, decoded-checked inside
        # the technique) must survive in the final value
        assert ev and survives(value, ev), (S["kind"], tname, ev, value)
        if accept(value, S["kind"]):
            TECH_USE[("secret", tname)] = TECH_USE.get(("secret", tname), 0) + 1
            return S["kind"], lg, value


def make_benign(hard):
    while True:
        lg = pick_lang()
        shape = pick_shape()
        tname = "plain"
        if not hard:
            S = wpick([(g, w) for g, w in BENIGN_PLAIN_KINDS if supports(g, lg)])(lg)
            core, ev = present_plain(S)
        elif chance(0.55):
            S = wpick([(g, w) for g, w in BENIGN_LOOKALIKE_KINDS if supports(g, lg)])(lg)
            core, ev = present_plain(S)
            tname = "lookalike"
        else:
            S = wpick([(g, w) for g, w in BENIGN_PLAIN_KINDS if supports(g, lg) and g.__name__ != "gen"
                       and g is not B_med_sentence])(lg)
            if S.get("text"):
                continue
            techs = tech_order(BENIGN_TECH)
            res = None
            for t in techs:
                res = t(S)
                if res:
                    break
            assert res
            core, ev = res
            tname = t.__name__
        value = render(core, lg, shape)
        if accept(value, S["kind"]):
            TECH_USE[("benign", tname)] = TECH_USE.get(("benign", tname), 0) + 1
            return S["kind"], lg, value


def new_key():
    while True:
        k = "mem_" + "".join(ch("0123456789abcdef") for _ in range(rng.randint(8, 32)))
        if k not in USED_KEYS:
            USED_KEYS.add(k)
            return k


THIRD = ["work", "home", "2025", "travel", "family", "personal", "kids", "notes", "2024", "phone", "car", "health"]


def new_ns():
    ns = ["memories", "u" + str(rng.randint(1, 9)) + digits(rng.randint(7, 9))]
    if chance(0.3):
        ns.append(ch(THIRD))
    return ns


def build():
    plan = ([("secret", False)] * N_SECRET_PLAIN + [("secret", True)] * N_SECRET_HARD +
            [("benign", False)] * N_BENIGN_PLAIN + [("benign", True)] * N_BENIGN_HARD)
    rng.shuffle(plan)
    counters = {}
    recs = []
    for label, hard in plan:
        kind, lg, value = (make_secret if label == "secret" else make_benign)(hard)
        c = (label, hard, kind)
        counters[c] = counters.get(c, 0) + 1
        rid = "t40a-%s-%s-%s-%03d" % (label[0], "h" if hard else "p", kind, counters[c])
        recs.append({"id": rid, "label": label, "kind": kind, "variant": "hard" if hard else "plain",
                     "namespace": new_ns(), "key": new_key(), "value": value, "_lang": lg})
    rng.shuffle(recs)
    return recs


def main():
    recs = build()
    lines = []
    for r in recs:
        lines.append(json.dumps({k: r[k] for k in ("id", "label", "kind", "variant", "namespace", "key", "value")}, ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    write_readme(recs, sha)
    print("wrote %d records, sha256 %s" % (len(recs), sha))


def write_readme(recs, sha):
    from collections import Counter
    by_lv = Counter((r["label"], r["variant"]) for r in recs)
    by_kind = Counter((r["label"], r["kind"], r["variant"]) for r in recs)
    shapes = Counter((r["label"], type(r["value"]).__name__) for r in recs)
    langs = Counter(r["_lang"] for r in recs)
    out = []
    out.append("# secrets_train40a — personal & conversational credential-detector TRAINING corpus\n")
    out.append("Generated by `make_train40a.py` (Python 3.11 stdlib only, no network). One `random.Random(%d)` drives every choice and the final shuffle; "
               "`python3 make_train40a.py` rewrites `train40a.jsonl` (and this README) byte-identically.\n" % SEED)
    out.append("- file: `train40a.jsonl` — %d records, one JSON object per line, keys `id, label, kind, variant, namespace, key, value`" % len(recs))
    out.append("- sha256: `%s`\n" % sha)
    out.append("## Counts by label / variant\n")
    out.append("| label | plain | hard | total |\n|---|---|---|---|")
    for lab in ("secret", "benign"):
        p, h = by_lv[(lab, "plain")], by_lv[(lab, "hard")]
        out.append("| %s | %d | %d | %d |" % (lab, p, h, p + h))
    out.append("\nValue shapes (string / object / array):\n")
    for lab in ("secret", "benign"):
        out.append("- %s: %d / %d / %d" % (lab, shapes[(lab, "str")], shapes[(lab, "dict")], shapes[(lab, "list")]))
    out.append("\nLanguages (record language, %d in total): %s\n" % (len(langs), ", ".join("%s %d" % kv for kv in sorted(langs.items(), key=lambda kv: -kv[1]))))
    for lab in ("secret", "benign"):
        kinds = sorted(set(k for (l, k, v) in by_kind if l == lab))
        out.append("## %s kinds (%d)\n" % (lab, len(kinds)))
        out.append("| kind | plain | hard |\n|---|---|---|")
        for k in kinds:
            out.append("| %s | %d | %d |" % (k, by_kind[(lab, k, "plain")], by_kind[(lab, k, "hard")]))
        out.append("")
    out.append("## Presentation techniques used (records per technique)\n")
    for lab in ("secret", "benign"):
        items = sorted(((t, n) for (l, t), n in TECH_USE.items() if l == lab), key=lambda x: (-x[1], x[0]))
        out.append("- %s (%d distinct): %s" % (lab, len(items), ", ".join("%s %d" % (t[2:] if t.startswith("t_") else t, n) for t, n in items)))
    out.append(README_POLICY)
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


README_POLICY = """
## Labelling policy

**secret** = the memory contains a usable access credential, in clear or in a form a reader can recover:
passwords and passphrases of any strength (a pet's name plus a year counts when the text says it is the password),
Wi-Fi keys, PINs (bank card, SIM PIN/PUK, phone passcode, parental controls), door / gate / garage / key-safe /
intercom / alarm / safe codes, bike / luggage / locker combinations, security-question answers given with their
question, 2FA backup codes, recovery keys, wallet seed phrases, payment card numbers (Luhn-valid, real brand
prefixes, never a published test number), online-banking credentials, username-plus-password pairs.
`hard` secrets hide the value with an evasion (spelled-out digits in the record's language, separators, emoji,
reversal, arithmetic, native/full-width/circled/math-bold digits and letters, homoglyphs, zero-width characters,
leet rules, base64/hex/rot13/Caesar/URL/HTML/\\u escapes, NATO/morse/binary/roman/T9, acrostics, pieces split across
list items, fields or chat messages, answers to an earlier question in a chat, misspelt or foreign field names,
markdown tables, CSV, .env, YAML, code fences, URLs with user-info, shell commands, corrections, forwarded quotes,
values buried in chatter). Every secret generator asserts that the credential, or an encoding that decodes back to
it, survives in the final value.

**benign** = no credential. Personal data is benign here: names, e-mail addresses, phone numbers, street
addresses, postcodes, birthdays, IBANs, national id / passport numbers, allergies, medication and dosages.
So are numbers and codes that open nothing (order, tracking, booking/PNR, invoice, loyalty, flight, seat, gate,
room, locker, bus route, serial/model, versions, scores, prices, times, sizes, recipes, promo codes, gift-card
balances, a card's last four digits, masked values), talk about credentials without a value, placeholders,
password-manager references, and words that merely sound like credentials ("key lime pie", "PIN the map",
"la clave de la paella", "senha 47" as a queue ticket). `hard` benign records are these close look-alikes, or
ordinary benign values presented with the same formatting tricks used for hard secrets (spelled digits,
separators, chat Q&A, split pieces, tables, CSV, misspelt/foreign field names, ...).

Judgement calls: national id / passport numbers, IBANs and SSIDs are benign (identify, do not open);
a card's last four digits with an expiry date is benign, a full card number without CVV is secret; security
answers are secret only when given with their question; a wallet seed phrase and a recovery key are secret;
promo codes are benign; "OTP" appears as the name of a Hungarian bank in some records; Portuguese "senha" can be a
queue ticket number (benign word look-alike); in a "correction" record the superseded value is a near-copy of the
real credential and the record is secret anyway.

Wrapping (note prefixes, filler lines, metadata, object/array shapes) is shared code applied with the same
probabilities to both labels; neither the label nor the kind is written into a value or key.
"""


if __name__ == "__main__":
    main()
