# ruff: noqa: E501  (conversation turns are kept one line each, as typed)
"""Multi-session conversations for the eval: a person talking with their agent about life, plans and
design questions, over months, without tool calls (docs/eval.md, "The corpus").

Coding histories are not the only thing people ask about: the held-out conversation benchmarks ask
"when is my dentist appointment" or "what did we decide about the cache" over dozens of chat sessions,
and the answer sits in one turn. Each `Conversation` becomes one OpenCode session; its turns alternate
person / assistant, starting with the person. Facts are stated in passing and some change in a later
session (the Lisbon dates, the knee, the job offer), so a question's gold is the turn that answers it.

`build_corpus.py conversations` writes them into `tests/data/eval/opencode-conversations.db.gz` with
deterministic ids (a hash of the slug and the turn number), and the slug -> session / message ids map
into `conversation_sessions.json`. Queries name turns by message id; the note says `slug#turn`.
"""

from __future__ import annotations

from dataclasses import dataclass

HOME = "/home/dev"


@dataclass
class Conversation:
    slug: str
    title: str
    days_ago: float
    turns: list[str]
    directory: str = HOME


CONVERSATIONS: list[Conversation] = [
    Conversation(
        "trip-lisbon-plan",
        "Planning a September trip to Lisbon",
        40,
        [
            "Marta and I want to go to Lisbon for a week in September, flying from Berlin. Can you help me sketch a plan? Budget is around 2,400 euros for both of us, flights included.",
            "Happy to. A week in Lisbon for two at 2,400 euros is comfortable if flights stay under 400. I would split it into three days in the centre (Baixa, Alfama, Bairro Alto), one day trip to Sintra, one to Cascais or the Arrábida beaches, and leave two days loose. Where you sleep matters most for the feel of the trip: do you want quiet and views, or nightlife close by?",
            "Quiet and views. We don't care about bars. Marta really wants to see the palaces in Sintra.",
            "Then Alfama or Graça. Both are hilly and old, with miradouros at the end of the street. For Sintra, go on a weekday, take the train from Rossio early and book the Pena Palace slot in advance; the queues at noon are long. Do you have a place in mind?",
            "A friend recommended Casa do Largo, a small guesthouse in Alfama. 95 a night with breakfast. Let's go with that.",
            "Good choice at that price: seven nights is 665 euros, which leaves about 1,300 for flights, food, the Sintra tickets and transport. I would book it with free cancellation until you have the flights.",
            "Flights: TAP direct from BER is 340 for both right now, leaving September 5. Worth it or wait?",
            "340 return for two on a direct flight is a good fare for September; prices usually climb from here. I'd book it now, then the guesthouse for 5 to 12 September.",
        ],
    ),
    Conversation(
        "trip-lisbon-update",
        "Lisbon trip: new dates and Sintra tickets",
        6,
        [
            "Change of plans for Lisbon: TAP moved our flight, we now leave on September 12 and come back on the 19th. Casa do Largo could move the booking, so that's fine.",
            "Good that the guesthouse could move with you. So the trip is now 12 to 19 September. Anything else that depended on the old dates, like the Sintra tickets or a restaurant booking?",
            "I just booked the Pena Palace tickets for Tuesday the 15th at 10:30, park and palace. Should we do Quinta da Regaleira the same day?",
            "Yes, it is a 20-minute walk downhill from Pena. Do Pena at 10:30, lunch in the old town, Regaleira in the afternoon, and take the train back before the evening rush. Skip the Moorish Castle unless you still have energy.",
            "Also Marta is vegetarian, can you suggest a couple of places in Alfama or nearby that are good for her and not touristy?",
            "Look for places with a proper vegetarian main, not only salads: Ao 26 Vegan Food Project near Chiado, the tasca menus in Graça usually have a vegetable açorda, and the Time Out market has several stalls if you want choice. Book dinner on Friday and Saturday; walk in the other nights.",
        ],
    ),
    Conversation(
        "half-marathon-training",
        "Half marathon training plan",
        75,
        [
            "I signed up for the Leipzig half marathon in late April. Last time I ran 2:07, this time I want to go under 1:55. I can run four times a week.",
            "Going from 2:07 to under 1:55 is about 35 seconds per kilometre faster, ambitious but doable in twelve weeks if you are already running regularly. Four runs a week: one easy run, one interval or tempo session, one easy run with strides, and a long run.",
            "What should the long run look like? I usually do it on Sunday morning.",
            "Start Sunday long runs at 14 km easy, add a kilometre a week up to 19-20, with every third week shorter to recover. From week six put the last 3 km at goal pace, which for 1:55 is 5:27 per kilometre.",
            "And the intervals? I hate the track.",
            "You don't need one. Do them on a flat stretch of road or a park loop: 6 x 800 m at 5:00 per km with 2 minutes of easy jogging between, Thursdays. Later replace them with a 25-minute tempo run at about 5:15.",
        ],
    ),
    Conversation(
        "knee-pain-running",
        "Knee pain after long runs",
        20,
        [
            "My right knee hurts on the outside after about 12 km, it started after the 18 km long run two weeks ago. It doesn't hurt walking.",
            "Pain on the outside of the knee that appears after a set distance and not when walking is typical of iliotibial band irritation, but I can't diagnose it. Please have a physiotherapist look at it before the next long run. Until then, keep runs short and stop when it starts.",
            "I saw the physio today. She confirmed IT band syndrome and said weak hips. No runs longer than 8 km for three weeks, and hip exercises every day.",
            "That's a clear plan. Clamshells, side planks and single-leg glute bridges are the usual hip exercises; do them daily as she said. You can keep fitness by replacing the long run with cycling, which loads the IT band much less.",
            "OK, I'll cycle on Wednesdays and Sundays instead of the long run. I guess the sub 1:55 is off?",
            "Not necessarily, but it is at risk. Three weeks with short runs and cycling keeps most of your aerobic fitness. If the knee is quiet after that, go for 1:58 as a realistic goal and decide on race day whether to push.",
        ],
    ),
    Conversation(
        "dentist-reschedule",
        "Rescheduling the dentist and other appointments",
        12,
        [
            "Can you help me write a short email to my dentist, Dr. Albrecht? I need to move my appointment on Monday the 22nd because I have a work trip.",
            "Sure: 'Dear Dr. Albrecht, unfortunately I need to move my appointment on Monday, 22 June, because of a work trip. Could you offer me another slot next week, ideally early in the morning? Thank you and kind regards.' Add your name and date of birth so the practice finds you quickly.",
            "They replied, the new appointment is Thursday the 25th at 8:15. It's the check-up plus the cleaning.",
            "Noted: Thursday 25 June, 8:15, check-up and professional cleaning. The cleaning usually takes 45 minutes, so plan to be at work around 9:30.",
            "While we're at it, remind me what else is due this summer. The car inspection is in August I think, and my passport expires next year.",
            "From what you said: the car's inspection (TÜV) is due in August, and the passport expires next year. If you travel outside the EU in the first half of next year, renew the passport now, since some countries require six months of validity.",
        ],
    ),
    Conversation(
        "sister-wedding",
        "Lena's wedding: speech and gift",
        55,
        [
            "My sister Lena is getting married on July 18 in Graz and she asked me to give a speech at the dinner. I have no idea where to start.",
            "Congratulations to Lena! A good wedding speech is short (3 to 5 minutes), personal, and ends with a toast. Structure: who you are, one or two stories that show who Lena is, a warm word about her partner, and the toast. What is her partner's name, and how long have they been together?",
            "His name is David, they met at a climbing gym six years ago. We're very close, she's two years younger than me.",
            "Then a story from your childhood and one about how she changed since David arrived works well. Do you have a story that is funny but not embarrassing for her?",
            "The canoe trip when we were kids: we capsized on the Mur and she insisted on finishing the trip soaking wet because 'we're not quitters'.",
            "That is perfect: it's funny, it says something true about her, and it links to marriage (finishing what you start, together). Open with it. For the gift, what budget do you have in mind?",
            "About 300 euros. They have a registry but it's mostly kitchen stuff.",
            "With 300 you could take one bigger item from the registry, or add to a honeymoon fund if they have one. A personal touch on top, like a framed photo of the two of you on the Mur trip, goes well with the speech.",
        ],
    ),
    Conversation(
        "wedding-speech-revise",
        "Revising the wedding speech",
        4,
        [
            "Here is my draft of the speech for Lena's wedding. It takes almost 7 minutes when I read it out loud, and I want it under 4. Can you help me cut it?",
            "Yes. At a normal speaking pace 4 minutes is about 500 words. Paste the draft and I'll mark what to cut; usually the introduction and any list of thank-yous can shrink the most.",
            "I'll keep the canoe story and the part about David teaching her to belay. I'd cut the section about our school years and the list of everyone who helped plan the day.",
            "Good cuts: the thank-yous belong to the couple's own speech anyway. With the school years gone you keep two stories, canoe and belaying, which is the right number. End with the toast 'to Lena and David, who never quit'.",
            "Love that ending. Read in front of the mirror: 3 minutes 50. Done!",
            "Well under the limit. Print it in a large font and keep it in your jacket; even people who know it by heart are calmer with the paper there.",
        ],
    ),
    Conversation(
        "apartment-move",
        "Moving to the new apartment",
        100,
        [
            "We're moving into the new apartment in Gohlis on May 1. It's a third floor without a lift, so I want movers. I have two quotes: Umzug Schmidt 890 euros and Blitzumzug 1,150.",
            "For a third floor without a lift, check what each quote includes: packing material, disassembly of furniture, the no-parking zone in front of the building, and insurance. A 260 euro gap often comes from the parking permit or from assembly.",
            "Blitzumzug includes the parking permit and assembly of the wardrobe and beds. Schmidt includes the parking permit but not assembly.",
            "Then the real gap is assembly. If you can take the beds apart and put them together yourselves, Schmidt saves money. If the wardrobe is a big built-in piece, paying for assembly may be worth it.",
            "We'll take Schmidt and do the beds ourselves. My brother can help with the wardrobe.",
            "Sounds like a plan. Book the date with Schmidt now, because 1 May is a popular moving day. Also register your new address at the Bürgeramt within two weeks of moving, and order the internet connection early: new lines can take several weeks.",
        ],
    ),
    Conversation(
        "plant-fiddle-fig",
        "Fiddle leaf fig dropping leaves",
        30,
        [
            "My fiddle leaf fig is dropping leaves, three this week, and some of the remaining ones have brown spots. It stands next to the living room window.",
            "Dropping leaves and brown spots on a fiddle leaf fig are usually water or temperature problems. How often do you water it, and is there a radiator or a draft near that window?",
            "I water it every Sunday, about a litre. And yes, the radiator is right below the window.",
            "Both could be the cause. Weekly watering is often too much indoors; let the top 5 cm of soil dry out first, which in winter may mean every 10 to 14 days. And the radiator dries the air and heats the roots from one side.",
            "Moved it to the corner by the balcony door, away from the radiator, and I'll water every 10 days and check the soil first.",
            "Good. Expect it to drop a few more leaves while it gets used to the new spot; that is normal. New leaves coming out at the top in four to six weeks will tell you it's happy.",
        ],
    ),
    Conversation(
        "dinner-party",
        "Dinner party for six",
        9,
        [
            "I'm hosting a dinner for six people on Saturday. One of them, Jonas, has a tree nut allergy, a serious one. Can you help with a menu that is safe for him?",
            "Of course. For a serious tree nut allergy, avoid almonds, walnuts, hazelnuts, cashews, pistachios and pecans entirely, including pesto, marzipan, praline, some oils and many store-bought desserts. Cook from scratch where you can and read every label. What kind of food do you like to cook?",
            "Italian-ish. I was thinking mushroom risotto as the main.",
            "Mushroom risotto is naturally nut-free and good for a group. Start with burrata and tomatoes, or a fennel and orange salad. For dessert, a pavlova with berries is safe if you make the meringue yourself.",
            "Perfect: burrata with tomatoes, mushroom risotto, pavlova with raspberries. I'll make the pavlova on Friday evening.",
            "A pavlova keeps well overnight in a dry tin; add the cream and berries just before serving. Keep any nut-containing snacks out of the kitchen that evening so nothing gets mixed up.",
        ],
    ),
    Conversation(
        "learning-japanese",
        "Learning Japanese before Kyoto",
        60,
        [
            "I started learning Japanese because we're going to Kyoto in November. I'm doing Anki every morning, 20 new cards a day, and I finished hiragana.",
            "That's a good start. 20 new cards a day means about 150 to 200 reviews daily after a month, so keep the number steady instead of raising it. After hiragana, learn katakana next: a lot of menu and station words are written in it.",
            "Should I try the JLPT at some point?",
            "The N5 is a realistic first goal: it covers basic grammar, about 800 words and 100 kanji. The exam is held in July and December; December would give you about eight months.",
            "Let's say I take the N5 in December, after the trip. I'll also do one italki lesson a week, Thursday evenings.",
            "A weekly conversation lesson is the perfect complement to Anki, since flashcards won't teach you to speak. Ask your tutor to practise travel situations before November: ordering food, asking directions, checking in at a ryokan.",
        ],
    ),
    Conversation(
        "kyoto-trip",
        "Kyoto in November",
        15,
        [
            "We fixed the dates for Japan: Kyoto from November 3 to 10, flying into Osaka Kansai. Is the JR Pass still worth it?",
            "Since the price rise in 2023 the nationwide JR Pass rarely pays off for a trip that stays in the Kansai area. Kansai to Kyoto on the Haruka express plus local trains costs much less. A Kansai area pass or just an ICOCA card is usually enough.",
            "Great, we skip the JR Pass and use ICOCA. For two nights we want a ryokan. Arashiyama or Gion?",
            "Arashiyama is quieter in the evening, with the bamboo grove and the river a short walk away, if you go early before the crowds. Gion is central and atmospheric but busy. For a ryokan experience with a bath and a kaiseki dinner, Arashiyama is the better fit.",
            "Arashiyama then, nights of November 7 and 8. The ryokan is about 38,000 yen per night with dinner.",
            "That is within the normal range for a good ryokan with kaiseki for two. Early November is just before the peak of the autumn leaves, so book restaurants and the ryokan soon.",
        ],
    ),
    Conversation(
        "budget-savings",
        "Monthly budget and emergency fund",
        45,
        [
            "I want to get my finances in order. Net income is about 3,900 a month. Rent is 1,150. I want an emergency fund but I don't know how big.",
            "A common rule is three to six months of essential spending. If your fixed costs (rent, insurance, food, transport) are about 1,800, that's 5,400 to 10,800. With a stable job, somewhere in the middle is reasonable.",
            "Let's aim for 9,000. I can put away 600 a month.",
            "At 600 a month you reach 9,000 in 15 months. Keep it in an instant-access savings account, separate from your current account so you don't spend it by accident.",
            "Once the fund is full, I'd like to invest. A colleague suggested an ETF savings plan.",
            "A broad, low-cost world index ETF with a monthly savings plan is a sensible default for long-term money. You could start with a small amount now, say 200 a month, and raise it when the emergency fund is full. I can't give personal financial advice, but that split is common.",
            "OK: 600 into the emergency fund and 200 into the ETF plan from next month.",
            "Sounds balanced. Set both up as standing orders on the day after your salary arrives, so it happens without you having to decide every month.",
        ],
    ),
    Conversation(
        "car-decision",
        "Used Octavia or an electric car",
        80,
        [
            "Our old Golf is dying. I'm torn between a used Skoda Octavia estate, around 18,000, and leasing a VW ID.3 for 289 a month.",
            "Both are reasonable. The Octavia is cheaper to own if you drive a lot of long distances and keep it for years. The ID.3 lease is predictable and cheap to run if you can charge at home or at work. How many kilometres a year do you drive, and can you charge at home?",
            "About 12,000 km, mostly in the city, and there's no charger at the new apartment. The landlord said maybe next year.",
            "Without home charging, an electric car depends on public chargers, which costs more and takes time. With 12,000 km mostly in town, either works, but the lack of a charger tips it towards waiting or the Octavia.",
            "We decided to keep the Golf running until autumn, then decide again once we know whether the landlord installs the wallbox.",
            "That's a sensible way to keep options open. Budget for a repair or two on the Golf, and ask the landlord for a written date for the wallbox so you can plan around it.",
        ],
    ),
    Conversation(
        "guitar-lessons",
        "Guitar lessons and practice",
        25,
        [
            "I finally started guitar lessons. My teacher is Tomás, Tuesdays at 18:00 at the music school on Eisenbahnstraße.",
            "Great! What are you working on so far, and how much time can you practise between lessons?",
            "Open chords are OK, but barre chords are a disaster, the F sounds awful. I practise about 20 minutes a day.",
            "Twenty minutes every day beats two hours on Sundays. For the F barre: first practise a small barre on only the top two strings, place the index finger slightly on its side, and keep the thumb low behind the neck. It usually takes a few weeks before it rings.",
            "Tomás wants me to learn Blackbird by the Beatles for the end of term. Is that realistic?",
            "Blackbird is fingerpicked and has no barre chords, so it suits you. Learn it in phrases of two bars, slowly, with a metronome. Three months is a realistic goal with daily practice.",
        ],
    ),
    Conversation(
        "kid-birthday",
        "Mia's seventh birthday party",
        35,
        [
            "Mia turns seven on June 21 and wants a party at the climbing gym. We invited twelve kids. What do I need to organise?",
            "Climbing gyms usually run kids' parties with an instructor, harnesses and a time slot of two hours, plus a room for food. Check the minimum age and whether parents must sign a waiver for each child. Do you want the gym to provide food, or bring your own?",
            "The gym does the instructor and the room, 2 to 4 pm, 18 euros per child. We bring the food. Mia wants a chocolate cake with strawberries.",
            "For twelve kids plus a few parents, one large chocolate cake (24 cm tin, two layers) is enough. Add fruit, pretzels and water; avoid sugary drinks before climbing. Bring the waivers printed in advance.",
            "The parents have to sign the waivers, I'll send them with the invitation. Goodie bags?",
            "Keep them small: a chalk bag or a carabiner keyring fits the theme and costs a couple of euros each. Send the invitations at least three weeks ahead, by June 1.",
        ],
    ),
    Conversation(
        "job-interview-prep",
        "Preparing for the Northwind Pay interview",
        50,
        [
            "I have an interview for a staff engineer role at Northwind Pay, a payments fintech. Round two is system design. Can you help me prepare?",
            "Sure. For a payments company expect a design like a ledger, an idempotent payments API, or a reconciliation pipeline. They will look for correctness under retries, consistency, auditability, and how you reason about trade-offs. Want to practise one?",
            "Let's do the ledger. I'd use double-entry with an append-only journal table.",
            "Good start. Explain why append-only (auditability, no lost history), how you guarantee each transaction balances (a check in the same database transaction), how you handle idempotency keys on the write API, and how balances are read: computed from the journal, or materialised and updated in the same transaction.",
            "They also asked for my salary expectations for the next call. I'm at 98k now.",
            "For a staff role at a fintech in Germany, 110 to 125k base is a common range. Give a range anchored on the upper part, for example 115 to 125k, and ask about the total package (bonus, equity, remote days) before committing.",
            "I'll say 115k as my expectation and ask about remote work.",
            "That's a solid anchor. Be ready to explain your scope at the current job in staff-level terms: decisions you drove across teams, not only code you wrote.",
        ],
    ),
    Conversation(
        "job-offer-decision",
        "Northwind Pay offer",
        10,
        [
            "Northwind Pay made an offer! 112k base, 3 days remote per week. I asked for 115 in the interview. Should I negotiate?",
            "Congratulations! Yes, a polite counter is normal and rarely withdraws an offer. You anchored at 115, so ask for 120k and 4 remote days, with the reasons: your staff-level scope and the design round. Be ready to accept 115 to 118.",
            "They came back with 120k and 4 remote days! I accepted. Start date is August 3.",
            "That's an excellent result. Before you resign, get the written contract and check the notice period of your current job; if it is three months to the end of a month, August 3 may need a conversation with your current employer.",
            "My notice is six weeks, so it works. I'll hand in my notice on Monday.",
            "Then you're set: give notice on Monday, and plan a handover document for your current team. Enjoy a few days off between jobs if you can.",
        ],
    ),
    Conversation(
        "design-catalog-cache",
        "Caching the product catalog",
        65,
        [
            "The catalog service is getting 2,000 reads per second and the Postgres primary is at 70% CPU. I want to add a cache. Talk me through the options before we write code.",
            "Three common options: cache-aside (read from Redis, on a miss load from Postgres and populate), write-through (every write updates the cache and the database), and a read replica instead of a cache. With a read-heavy catalog and few writes, cache-aside or write-through with a TTL both work; the question is how stale a product may be.",
            "Prices must not be stale for more than a few minutes. Descriptions can be stale for an hour.",
            "Then use write-through for price changes, so the cache is updated when a price is written, plus a TTL as a safety net. Descriptions can go through cache-aside with a long TTL.",
            "We decided: write-through with a 5-minute TTL for prices, cache-aside with a 1-hour TTL for descriptions, Redis as the store. Invalidation on product updates via the catalog.updated event.",
            "Clear design. Two things to watch: use a short lock or a single flight on cache misses so a popular product doesn't stampede the database, and put a version or timestamp on cache entries so an out-of-order catalog.updated event can't overwrite a newer price.",
        ],
    ),
    Conversation(
        "design-structured-logging",
        "Structured logging for the services",
        28,
        [
            "Our logs are a mess: print statements, different formats in every service, and nobody can follow a request across the gateway and the workers. I want a standard.",
            "A standard usually has three parts: structured JSON logs with a fixed set of fields, a request or trace id propagated through every hop, and one place to query them. What do you use for storage today?",
            "Grafana and Loki are already running for metrics dashboards. Python services mostly.",
            "Then Loki with JSON logs is the natural fit. In Python, structlog gives you JSON output and context variables, so a request id bound in the middleware appears on every log line of that request.",
            "Let's decide: structlog with JSON output everywhere, a request_id from the X-Request-ID header or generated at the gateway, and we keep logs in Loki for 14 days. Errors also go to Sentry.",
            "Good decisions. Write them down as a short logging guideline with the required fields (timestamp, level, service, request_id, event) and a middleware snippet, so new services copy it instead of inventing their own.",
        ],
    ),
    Conversation(
        "team-review-agreements",
        "Team agreements for code review and deploys",
        70,
        [
            "Our team keeps arguing about reviews: huge PRs sitting for days, and two incidents last month came from deploys late on a Friday. I want us to agree on some rules at the retro.",
            "Rules that stick are few and concrete. Typical ones: a size limit for PRs, a response time for reviews, extra care for risky changes, and a deploy window. What would your team accept?",
            "I'd propose PRs under 400 lines of diff, a first review within one working day, and two approvals for anything touching database migrations.",
            "Those are realistic. Add that generated files and lockfiles don't count towards the 400 lines, otherwise people will game it or feel punished for dependency updates.",
            "The retro agreed to all of it, plus no production deploys after 3 pm on Fridays.",
            "A deploy freeze on Friday afternoon is a cheap way to avoid weekend incidents. Put the four rules in the repository's CONTRIBUTING file and in the PR template so they are visible where people work.",
        ],
    ),
    Conversation(
        "zh-shanghai-trip",
        "上海出差和妈妈的生日",
        33,
        [
            "下个月我要去上海出差，见一个客户，大概三天。酒店想住在静安寺附近，方便去客户的办公室。",
            "静安寺附近交通很方便，地铁2号线和7号线都在那里。如果客户办公室在南京西路一带，走路就能到。你大概什么时候出发？",
            "10月14号出发，17号回来。刚好10月16号是我妈妈的生日，她住在上海，我想晚上请她吃饭。",
            "太好了，出差还能陪妈妈过生日。可以提前订一家本帮菜餐厅，比如在静安区找一家安静一点的，方便聊天。你想给她准备什么礼物吗？",
            "我已经买了一条真丝围巾，她喜欢蓝色的。还想订一个小蛋糕。",
            "真丝围巾很合适。蛋糕可以在餐厅附近的蛋糕店预订，当天下午去取，或者问餐厅能不能帮忙保存。",
        ],
    ),
    Conversation(
        "zh-health-checkup",
        "体检结果和复查",
        8,
        [
            "上周做了年度体检，报告说胆固醇偏高，低密度脂蛋白是4.2。其他指标都正常。",
            "低密度脂蛋白4.2确实偏高。我不能替医生诊断，但一般建议先从饮食和运动开始调整。医生有没有具体的建议？",
            "医生说先不吃药，少吃红肉和油炸食品，每周运动三次，每次至少三十分钟。三个月以后复查。",
            "这是很常见的第一步。可以把红肉换成鱼和豆制品，多吃燕麦和蔬菜。运动的话，快走、骑车或者游泳都可以。",
            "我打算每周一、三、五早上去游泳，复查约在九月底。",
            "很好的计划。可以在手机上设一个提醒，九月中旬先预约复查，免得到时候排不上号。",
        ],
    ),
    Conversation(
        "book-club",
        "Book club picks",
        18,
        [
            "Our book club just finished The Remains of the Day. I loved it, half the group found it slow. It's my turn to pick the next book and to host in July.",
            "If the group liked the writing but found the pace slow, another Ishiguro could work: Klara and the Sun is shorter and moves faster, and it gives a lot to discuss. Or something different in tone, like a short novel by Claire Keegan.",
            "Klara and the Sun it is. The meeting will be at my place on July 9.",
            "Nice. For hosting, a few questions prepared in advance help when the discussion stalls: what Klara understands about love, whether the ending is sad, and how it compares with Stevens in The Remains of the Day.",
            "Good idea, I'll prepare three questions and make a big salad and focaccia.",
            "Salad and focaccia are easy to eat while talking. Remind people a week before; July is holiday season and attendance drops.",
        ],
    ),
    Conversation(
        "home-network-mesh",
        "Wi-Fi dropping in the new apartment",
        42,
        [
            "The Wi-Fi in the new apartment keeps dropping in the bedroom and the kitchen. The router is in the living room corner where the fibre comes in.",
            "Thick walls in old buildings often block Wi-Fi. Options: move the router to a central spot, add a mesh system, or run a cable to a second access point. Is there a network cable in the walls?",
            "No cables. I'd rather not drill. What about mesh?",
            "A mesh kit with two or three units solves most apartments. Put one unit next to the router and the others halfway towards the dead zones, not inside them.",
            "Bought a TP-Link Deco three pack. One in the living room, one in the hallway, one in the kitchen. Everything is fast now. I also made a guest network for the smart plugs and the robot vacuum.",
            "Putting the smart devices on a separate guest network is a good security habit. Store the admin password and both Wi-Fi passwords in your password manager, and turn on automatic firmware updates in the Deco app.",
            "They're in Bitwarden. Done.",
            "Then the network is in good shape. If the kitchen unit ever drops, try moving the hallway unit a metre or two towards the kitchen first.",
        ],
    ),
    Conversation(
        "tax-return",
        "Tax return for last year",
        90,
        [
            "I need to do my tax return for last year. I worked from home about 120 days. What can I deduct?",
            "For home-office days there is a daily allowance (Homeoffice-Pauschale) of 6 euros per day, up to 1,260 euros a year, so 120 days gives 720 euros. Work equipment like a monitor or a desk chair can be deducted too, and professional books or courses.",
            "I also bought a monitor for 340 and a desk chair for 420 last year.",
            "Items under 800 euros net can be deducted fully in the year you bought them. So the monitor and the chair are both fully deductible, as long as they are mainly used for work.",
            "This year I'll let an accountant do it. Frau Becker, she's the one my colleague uses. Deadline?",
            "With a tax adviser the deadline is much later than the usual July 31 for people filing themselves. Send Frau Becker your documents early anyway: income statement, receipts for the monitor and chair, and your list of home-office days.",
        ],
    ),
    Conversation(
        "conference-talk",
        "Talk proposal for PyCon DE",
        22,
        [
            "I want to submit a talk to PyCon DE about building search over coding agent histories, basically what we learned with recollect. The CFP closes on Sunday.",
            "A good topic: concrete, technical and new. A strong proposal has a clear audience, one main takeaway and an outline. Who is it for, and what should they leave with?",
            "For Python developers who use coding agents. Takeaway: plain BM25 with good tokenization beats embeddings for code history, and embeddings help for paraphrases.",
            "That is a crisp takeaway. Outline: the problem (agents forget), the data (sessions, tool outputs), tokenization for identifiers and Chinese, measuring with an eval, where embeddings help, and numbers. 30 minutes fits that.",
            "Title idea: 'grep is not enough: searching what your coding agent already saw'. Submitted it just now as a 30-minute talk.",
            "Good title: it promises a contrast and a practical answer. Keep a copy of the abstract; if it's accepted you will need it for the slides, and if not you can send it to another conference.",
        ],
    ),
    Conversation(
        "cat-vet",
        "Pixel's vet visit",
        5,
        [
            "Took Pixel to the vet today for her yearly vaccination. She weighs 4.8 kg, up from 4.3 last year. The vet said she should lose a bit.",
            "Half a kilo is more than 10% for a cat, so the vet is right to mention it. Usually this means measuring the food exactly, fewer treats, and more play. Did the vet suggest a target or a diet food?",
            "Target 4.4 kg, measured portions, 55 grams of dry food a day split into three meals. And she needs a dental cleaning under anaesthesia, booked for July 9 at 8 am.",
            "Noted: 55 g a day in three meals, target 4.4 kg, and a dental cleaning on July 9 at 8 am. For anaesthesia she will need to fast the night before; ask the practice exactly from when.",
            "No food after 10 pm the evening before, water is fine.",
            "Then take the food bowl away at 10 pm on July 8 and keep the water. A puzzle feeder afterwards can help her eat slower and play more, which helps with the weight too.",
        ],
    ),
]
