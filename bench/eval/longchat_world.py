# ruff: noqa: E501  (sentences are kept one line each, as typed)
"""The material of the long-session chat haystacks (issue 16): everyday topics to talk about at length,
fillers for the slots in their sentences, and the stories whose facts the questions ask about.

`bench/eval/longchat.py` composes from it, with a fixed seed, haystacks like a multi-session chat
benchmark's: about 40 long sessions per haystack (15-40 turns each), most of them about nothing the
questions ask, the facts stated once in passing inside a session about something else. This file was
written before any of it was run (see docs/eval.md); do not edit it to move a figure, write a new set.

* `TOPICS`: per topic, things a person says or asks (`user`) and sentences an assistant answers with
  (`assistant`). A session talks about two to four topics in turn, each sentence at most once.
* `SLOTS`: `{name}`, `{city}`, ... in a sentence are filled from these lists, per sentence.
* `STORIES`: one question each, with the turns that answer it (`*` marks a gold turn; `u:` the person,
  `a:` the assistant), one list per gold session, and `lures`: sentences that share the question's
  words without answering it, scattered into other sessions of the same haystack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SLOTS: dict[str, list[str]] = {
    "name": [
        "Anna",
        "Ben",
        "Chloe",
        "Dmitri",
        "Elena",
        "Farid",
        "Greta",
        "Hugo",
        "Ines",
        "Jonas",
        "Kaito",
        "Lena",
        "Marco",
        "Nadia",
        "Oskar",
        "Priya",
        "Quentin",
        "Rosa",
        "Samir",
        "Tara",
        "Umar",
        "Vera",
        "Wen",
        "Ximena",
        "Yusuf",
        "Zoe",
        "Aiko",
        "Bruno",
        "Carla",
        "Diego",
        "Esther",
        "Felix",
        "Hana",
        "Igor",
        "Julia",
        "Kofi",
        "Leah",
        "Mateo",
        "Nora",
        "Pablo",
    ],
    "city": [
        "Porto",
        "Vienna",
        "Krakow",
        "Seville",
        "Ghent",
        "Bologna",
        "Tallinn",
        "Lyon",
        "Edinburgh",
        "Valencia",
        "Ljubljana",
        "Bergen",
        "Gdansk",
        "Split",
        "Bruges",
        "Salzburg",
        "Turin",
        "Aarhus",
        "Cork",
        "Nantes",
        "Graz",
        "Malmo",
        "Leipzig",
        "Bilbao",
        "Brno",
        "Riga",
        "Basel",
        "Utrecht",
        "Naples",
        "Zagreb",
    ],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "month": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    "n": [str(i) for i in range(2, 13)],
    "nn": [str(i) for i in range(15, 96, 5)],
    "dish": [
        "lentil soup",
        "mushroom risotto",
        "shakshuka",
        "chicken tikka",
        "pad thai",
        "ratatouille",
        "bean chili",
        "gnocchi",
        "fish tacos",
        "miso ramen",
        "paella",
        "stuffed peppers",
        "moussaka",
        "banana bread",
        "pierogi",
        "falafel wraps",
        "carbonara",
        "dal",
        "goulash",
        "pho",
    ],
    "thing": [
        "the blue backpack",
        "an old bicycle",
        "a cast-iron pan",
        "the spare keys",
        "a wool coat",
        "the garden hose",
        "a desk lamp",
        "the camping stove",
        "a pair of hiking boots",
        "the bread maker",
        "an umbrella",
        "the toolbox",
        "a yoga mat",
        "the printer",
        "a picnic blanket",
    ],
    "color": ["green", "navy", "mustard", "grey", "teal", "burgundy", "cream", "charcoal", "olive", "coral"],
}


@dataclass
class Topic:
    user: list[str]
    assistant: list[str]


TOPICS: dict[str, Topic] = {
    "cooking": Topic(
        user=[
            "I want to cook something warm tonight with what is left in the fridge: half a cabbage, some carrots and rice. Ideas?",
            "How long can cooked rice stay in the fridge before it is unsafe?",
            "My {dish} always turns out bland. What am I doing wrong?",
            "Can I freeze a big batch of {dish} for the week, or does it go mushy?",
            "{name} is coming over on {day} and doesn't eat meat. What would be an easy main?",
            "Is it worth buying a pressure cooker if I mostly cook for one?",
            "What spices should every kitchen have, in your view?",
            "I burned the bottom of my pot again. How do I clean it without scratching?",
            "How do I stop onions from making me cry when I chop them?",
            "Give me a shopping list for three dinners that share most ingredients.",
        ],
        assistant=[
            "Salt early and taste often; most bland food is simply under-seasoned at the start rather than at the end.",
            "Cooked rice keeps about four days in the fridge if you cool it quickly and store it covered.",
            "A splash of acid at the end, lemon juice or a little vinegar, wakes up stews and soups that taste flat.",
            "Soups and stews freeze well for two or three months; pasta and potatoes in them tend to go soft, so add those fresh.",
            "Toast whole spices in a dry pan for a minute before grinding them and the flavour is noticeably deeper.",
            "For a meat-free main that still feels generous, roast a tray of vegetables with chickpeas and serve it over couscous with yogurt.",
            "A pressure cooker pays off if you like beans, stocks and braises, even when cooking for one, because it turns hours into minutes.",
            "A paste of baking soda and a little water, left for twenty minutes, lifts most burned spots without steel wool.",
            "Chill the onion for ten minutes and use a sharp knife; a dull blade crushes the cells and releases more of the irritating gas.",
            "Plan meals around one big batch of a base, like roasted peppers or a tomato sauce, and vary the rest.",
            "Cabbage, carrots and rice make a good fried rice: shred the cabbage thin, fry it hard, and add a fried egg on top.",
            "Keep a jar of good stock in the freezer; it turns plain grains into something you would serve to guests.",
            "Cumin, smoked paprika, chilli flakes, oregano, cinnamon and black pepper cover most recipes you will meet.",
            "If your {dish} needs more depth, brown the aromatics longer and deglaze the pan with a little wine or stock.",
            "Rest meat for a few minutes after cooking so the juices stay inside instead of running onto the board.",
            "Batch cooking on {day} evenings works well for many people: two hours of cooking covers most of the week.",
            "Fresh herbs go in at the end, dried herbs at the start; that one rule fixes a lot of dull sauces.",
            "When a recipe says to season to taste, taste it three times: after the base, in the middle, and right before serving.",
            "A cheap digital thermometer removes most of the guesswork from roasting and baking.",
            "Garlic burns in seconds in hot oil, so add it after the onions have softened, not before.",
            "Leftover bread makes good croutons or a panzanella salad with ripe tomatoes and basil.",
            "Soak dried beans overnight, or do a quick soak: boil for two minutes and leave them covered for an hour.",
        ],
    ),
    "gardening": Topic(
        user=[
            "The leaves on my tomato plants are turning yellow from the bottom up. Should I worry?",
            "When is the right time to plant garlic in a temperate climate?",
            "I only have a small balcony facing north. What can I realistically grow?",
            "How often should I water pots in the middle of summer?",
            "Slugs ate half my lettuce overnight. Any way to stop them without poison?",
            "Is it a good idea to start a compost bin in a flat, or will it smell?",
            "My neighbour {name} gave me some cuttings. How do I get them to root?",
            "What flowers bring bees to a garden in {month}?",
        ],
        assistant=[
            "Yellowing lower leaves on tomatoes are often just old leaves, but if it climbs fast it can be a nitrogen shortage or early blight.",
            "Plant garlic cloves in autumn, a few weeks before the ground freezes, pointy end up and about five centimetres deep.",
            "A north-facing balcony suits leafy greens, mint, parsley, chives and ferns; fruiting plants will struggle without direct sun.",
            "In hot weeks, pots may need water every day; push a finger into the soil and water when the top few centimetres are dry.",
            "Beer traps, copper tape around the beds and watering in the morning rather than the evening all reduce slug damage.",
            "A small bokashi bucket works indoors without smell if you keep the lid shut and drain the liquid every few days.",
            "Take cuttings just below a leaf node, strip the lower leaves and keep them in moist compost under a plastic bag.",
            "Lavender, borage, catmint and oregano in flower are all bee favourites through the summer months.",
            "Mulch keeps moisture in and weeds down; a layer of straw or wood chips a few centimetres deep is enough.",
            "Rotate where you grow each family of vegetables every year so soil diseases do not build up.",
            "Deadheading spent flowers pushes most annuals to keep blooming for weeks longer.",
            "Feed tomatoes with a high-potash fertiliser once the first fruits set, about every ten days.",
            "Raised beds warm up faster in spring and drain better, which helps on heavy clay soil.",
            "Water at the base of the plant, not over the leaves, to keep fungal problems away.",
            "Seeds need warmth more than light to germinate; a spot on top of the fridge often works.",
            "Harden off seedlings by putting them outside for a few hours a day over a week before planting them out.",
            "Herbs like basil get bitter once they flower, so pinch off the buds as soon as they appear.",
            "A soil test kit is cheap and tells you whether to add lime or sulphur before you plant anything.",
            "Climbing beans and peas save space on a small plot if you give them a trellis or a few canes.",
            "Pruning fruit trees in late winter, while they are dormant, shapes them with the least stress.",
        ],
    ),
    "fitness": Topic(
        user=[
            "I want to get back into running after a long break. How should I start?",
            "My calves are sore for days after every run. Is that normal?",
            "What is a reasonable weekly plan if I want to get stronger but only have three evenings?",
            "Should I stretch before or after a workout?",
            "{name} wants me to join her cycling club. How do I keep up with people who ride every weekend?",
            "Is it bad to work out every single day?",
            "How do I stay motivated to exercise in winter when it is dark at five?",
            "What should I eat before a morning workout?",
        ],
        assistant=[
            "Start with run-walk intervals, one minute running and two walking, and build up over four to six weeks.",
            "Sore calves are common when you return to running; shorter strides and a slower pace usually ease them.",
            "Three full-body sessions a week, built on squats, presses, rows and hinges, is a proven plan for strength.",
            "Dynamic movement before exercise and gentle static stretching afterwards is the usual recommendation.",
            "In a group ride, stay in the middle of the pack where the draft is strongest and the effort is lowest.",
            "Daily movement is fine, but hard sessions need a rest day or an easy day between them to rebuild.",
            "Put your workout clothes out the night before; removing small decisions is half of staying consistent.",
            "A banana or a slice of toast with peanut butter half an hour before training is enough for most people.",
            "Increase your weekly distance by about ten percent at most, and every fourth week take it easier.",
            "Sleep does more for recovery than any supplement; seven to nine hours makes a visible difference.",
            "A heart rate monitor helps keep easy runs truly easy, which is where most of the aerobic gains come from.",
            "Foam rolling the calves and the front of the hips for a few minutes a day helps many runners.",
            "Good shoes matter less than a gradual build-up, but replace them after about 700 kilometres.",
            "If you can hold a conversation while running, you are at the right pace for base training.",
            "Strength work twice a week reduces running injuries more than stretching does.",
            "Indoor options like a rowing machine or a skipping rope keep your fitness going when the weather is bad.",
            "Track your sessions in a notebook or an app; seeing the streak grow is surprisingly motivating.",
            "A proper warm-up of ten minutes makes the first hard effort feel much less brutal.",
            "Hydrate before you are thirsty on long sessions, especially when it is warm and humid.",
            "Progress in the gym usually stalls after a few months; change the rep ranges to keep improving.",
        ],
    ),
    "money": Topic(
        user=[
            "I never know where my salary goes by the end of the month. How do I start a budget?",
            "Is it smarter to pay off my credit card or to put money into savings first?",
            "How big should an emergency fund be?",
            "{name} and I are thinking about opening a joint account for the household. Good idea?",
            "Are index funds really better than picking shares myself?",
            "How do I stop impulse buying online late at night?",
            "What is a sensible way to save for a holiday in {month}?",
            "My phone contract costs {nn} a month. Is that a lot?",
        ],
        assistant=[
            "Track every expense for one month without judging it; the categories that surprise you are where a budget starts.",
            "High-interest card debt usually costs more than savings earn, so clear it first while keeping a small cushion.",
            "Three to six months of essential expenses is the common rule for an emergency fund.",
            "Many couples keep a joint account for shared bills and separate accounts for personal spending.",
            "Low-cost index funds beat most stock pickers over long periods, mainly because of lower fees.",
            "Remove saved card details from shopping sites and wait twenty-four hours before buying anything over a set amount.",
            "Open a separate savings pot for the trip and move a fixed amount into it right after payday.",
            "The fifty-thirty-twenty split, needs, wants and savings, is a simple starting point you can adjust later.",
            "Automate transfers to savings so the money moves before you have a chance to spend it.",
            "Review subscriptions every quarter; small monthly charges add up faster than people expect.",
            "A sinking fund for irregular costs, like car repairs and gifts, stops them from wrecking the monthly budget.",
            "Compare your contract with current offers; switching providers often cuts the bill by a third.",
            "Cash envelopes for groceries and eating out make overspending visible in a way card payments do not.",
            "Write down your three biggest goals for the year and let them decide where extra money goes.",
            "Check whether your employer matches pension contributions; not taking a match is leaving money on the table.",
            "Negotiating a small raise once a year usually beats chasing cashback offers.",
            "Keep receipts for larger purchases in one folder in case you need a refund or a warranty claim.",
            "Rounding up every purchase into a savings account is a painless way to build a small fund.",
            "When interest rates are high, a fixed-term savings account can be worth locking some money into.",
            "Set a monthly money date to look at the numbers together; ten minutes is enough to catch problems early.",
        ],
    ),
    "home": Topic(
        user=[
            "The bathroom tap keeps dripping even when it is closed tight. Can I fix it myself?",
            "What is the easiest way to hang heavy shelves on a plaster wall?",
            "There is black mould in the corner of the bedroom ceiling. How worried should I be?",
            "We want to paint the living room {color}. Do I need a primer over the old white?",
            "The radiator in the hall is cold at the top. What does that mean?",
            "How do I unblock a kitchen sink without calling a plumber?",
            "Our front door sticks in wet weather. Any quick fix?",
            "I'd like to put up {thing} in the hallway. Is a simple hook strong enough?",
        ],
        assistant=[
            "A dripping tap is usually a worn washer or cartridge; shut off the water, take the handle off and swap the part.",
            "Use wall plugs rated for the load, or better, find the studs behind the plaster and screw directly into them.",
            "Mould in a ceiling corner usually comes from condensation; ventilate daily and treat it with a mould cleaner.",
            "Going from white to a strong colour rarely needs a primer, but two coats of the new paint will.",
            "A radiator cold at the top has air trapped in it; bleed it with a radiator key until water comes out.",
            "Boiling water, then baking soda and vinegar, then a plunger, clears most kitchen sink blockages.",
            "A sticking door has often swollen; plane a millimetre off the edge where it rubs and seal the wood.",
            "Check the hook's rating and the wall type; hollow walls need spring toggles for anything heavy.",
            "Keep a small toolkit with a screwdriver set, pliers, a tape measure and a spirit level; it covers most jobs.",
            "Silicone around a bath should be cut out and replaced when it turns black, not painted over.",
            "Draught excluders and a roll of foam tape around windows are the cheapest way to warm a room.",
            "Before drilling, run a cable detector over the wall so you do not hit a pipe or a wire.",
            "Fill small holes with ready-mixed filler, let it dry, sand it flat and touch up the paint.",
            "A dehumidifier in a damp room pulls out surprising amounts of water in a single night.",
            "Squeaky floorboards can often be silenced with a screw driven through them into the joist below.",
            "Clean the extractor fan filter every few months; a clogged filter barely moves air.",
            "Use painter's tape on the edges and remove it while the paint is still slightly wet for clean lines.",
            "Turning the heating down by one degree saves noticeably on the bill without much loss of comfort.",
            "If a fuse keeps tripping, unplug everything on that circuit and reconnect items one at a time to find the culprit.",
            "Grout cleaner and an old toothbrush bring tiles back to life in an afternoon.",
        ],
    ),
    "books": Topic(
        user=[
            "I've been stuck on the same novel for a month. Should I just give up on it?",
            "Can you recommend something short to read on a weekend?",
            "{name} started a book club and the first pick is a long classic. Any tips for keeping up?",
            "Are audiobooks really reading? I listen while I commute.",
            "How do people read fifty books a year?",
            "I'd like to read more non-fiction about history. Where do I start?",
            "Do you think e-readers are better for your eyes than phones?",
            "What's a good way to remember what I've read?",
        ],
        assistant=[
            "Life is too short for books you do not enjoy; put it down and come back later if it still calls you.",
            "Novellas are perfect for a weekend: you get a whole story arc in a hundred pages.",
            "For a long classic, divide the pages by the days until the meeting and read that slice every evening.",
            "Listening is a real way to take in a book; comprehension studies find it close to reading print.",
            "People who read a lot usually carry a book everywhere and read in small gaps during the day.",
            "Narrative history, written like a story, is a gentle way into the subject before the heavier surveys.",
            "E-ink screens do not emit light the way phones do, so they are easier on the eyes at night.",
            "Write three sentences about each book when you finish it; that habit alone doubles what you remember.",
            "Mixing genres keeps reading fresh: follow a thriller with poetry, then some essays.",
            "Libraries lend e-books through apps now, which saves money and shelf space.",
            "Reading before sleep works best with paper or e-ink and dim, warm light.",
            "If a book club pick feels heavy, read a short summary of the plot first so you can enjoy the style.",
            "Keep a list of books people mention to you; it becomes the best recommendation source you have.",
            "Short story collections are good for commutes because each piece fits into one journey.",
            "Rereading a favourite from your teens is often surprising: you notice completely different things.",
            "Translations vary a lot; for older classics it is worth comparing the first pages of two versions.",
            "Set a small daily goal, like twenty pages, rather than a big yearly target.",
            "Book festivals and author readings are a nice way to discover writers outside your usual taste.",
        ],
    ),
    "screen": Topic(
        user=[
            "I need a series to watch that isn't crime or medical drama. Any ideas?",
            "We keep arguing about what film to watch on {day} nights. How do other couples decide?",
            "Is it worth paying for three streaming services at once?",
            "What is a good film to watch with my parents that everyone will enjoy?",
            "I fall asleep during every film after ten. Any tricks?",
            "Can you explain the ending of a film where the whole story turns out to be a dream?",
            "{name} recommended a documentary about oceans. Are nature documentaries still good these days?",
        ],
        assistant=[
            "Workplace comedies and slow family dramas are a nice break when you are tired of crime and hospitals.",
            "Some couples take turns choosing, others keep a shared list and pick at random from it.",
            "Rotating streaming services month by month gives you most of the catalogue at a third of the price.",
            "Gentle comedies and classic adventure films tend to please several generations at once.",
            "Start earlier, watch in two halves, or pick something shorter than ninety minutes on weeknights.",
            "Dream endings usually reframe the story as the character's inner struggle rather than literal events.",
            "Recent nature documentaries use new camera technology and are often more beautiful than ever.",
            "Subtitles help with fast dialogue and heavy accents, and many people keep them on permanently.",
            "A film night with a theme, like one director or one decade, makes choosing much easier.",
            "Animated films for adults have become a genre of their own and are worth exploring.",
            "If a series does not grab you after three episodes, it probably will not later either.",
            "Old black and white films can feel slow at first, but the dialogue is often sharper than modern scripts.",
            "Watching a series at one episode a week, like it used to air, makes it last and leaves room to talk about it.",
            "Turn off autoplay if you want to stop binge watching late into the night.",
            "Local cinemas often run cheap screenings of classics on weekday evenings.",
            "Foreign-language series are easier than ever to find and often more inventive than the big productions.",
        ],
    ),
    "music": Topic(
        user=[
            "I'm thirty-five and want to learn the piano. Is it too late?",
            "How much should I practise the guitar each day as a beginner?",
            "My fingers hurt on the guitar strings. Does that ever stop?",
            "{name} sings in a choir and wants me to join. I can't read music. Is that a problem?",
            "What is a good playlist for focusing while working?",
            "Is it worth buying a digital piano, or should I save for an acoustic one?",
            "How do I find a decent music teacher in {city}?",
        ],
        assistant=[
            "Adults learn the piano perfectly well; they often progress faster at first because they practise deliberately.",
            "Twenty focused minutes a day beats two hours once a week for building finger memory.",
            "Sore fingertips fade after two or three weeks as calluses form; short sessions help.",
            "Many choirs welcome singers who learn by ear, and reading music comes naturally with time.",
            "Instrumental music without lyrics, like ambient or classical piano, is the usual choice for focus.",
            "A digital piano with weighted keys is a good start and lets you practise with headphones at night.",
            "Ask local music shops and community schools; teachers often advertise there before anywhere else.",
            "Learning songs you love keeps motivation up far better than exercises alone.",
            "Record yourself once a month; hearing the progress is encouraging and shows what to work on.",
            "A metronome feels strict at first, but it is the fastest way to develop steady timing.",
            "Scales are boring but they build the patterns your hands need for almost every piece.",
            "Play with other people as soon as you can; even simple songs in a group teach you a lot about rhythm.",
            "Tune your instrument every time you play; practising out of tune trains your ear wrongly.",
            "Slow practice is the secret most teachers repeat: play it slowly enough to play it right.",
            "Open mic nights can be a friendly first stage if you keep the song short and familiar.",
            "Ear training apps help you recognise intervals and chords in just a few minutes a day.",
        ],
    ),
    "career": Topic(
        user=[
            "I've been in the same job for six years and feel stuck. How do I figure out what's next?",
            "How do I ask my manager for a raise without it being awkward?",
            "What should I put on my CV if I took a year off?",
            "I have an interview at a company in {city} next {day}. How should I prepare?",
            "{name} offered to refer me for a role at her company. How do I make the most of that?",
            "How do I say no to extra projects without looking lazy?",
            "Is it normal to feel nervous before every presentation?",
            "Should I take a job with a higher salary but a longer commute?",
        ],
        assistant=[
            "Write down which parts of your week give you energy and which drain it; the pattern points to your next step.",
            "Ask for a raise with evidence: the results you delivered, the scope you took on, and what the market pays.",
            "Name the gap year briefly and honestly; travel, caring or study are understood by most employers.",
            "Research the company's recent news and prepare three stories that show how you solved real problems.",
            "Give your referrer a short summary of why you fit the role so she can pass it on in her own words.",
            "Saying you want to do your current projects well is a respectable way to decline more work.",
            "Nerves before presentations are normal; rehearsing the first two minutes aloud calms them the most.",
            "Put a price on the commute in hours per week and see whether the higher salary still wins.",
            "Informational interviews with people in roles you admire are the quickest way to learn what they really do.",
            "Keep a brag document with your achievements; it makes reviews and applications much easier.",
            "A mentor outside your company can give honest advice without office politics in the way.",
            "Ask at the end of an interview what success looks like in the first six months.",
            "Learning one adjacent skill, like data analysis or public speaking, often opens more doors than a new degree.",
            "Take notes during one-to-ones and send a short summary afterwards so agreements do not get lost.",
            "Burnout often shows up as cynicism before exhaustion; notice it early and talk to someone.",
            "Negotiating an offer is expected; a polite counter rarely makes a company withdraw.",
            "Tailor your CV to each application by echoing the language of the job advert.",
            "Side projects show initiative and can turn into a portfolio for a career change.",
        ],
    ),
    "kids": Topic(
        user=[
            "My daughter refuses to do homework after school. How do I handle it without a fight every day?",
            "How much screen time is reasonable for an eight-year-old?",
            "We're planning a birthday party for {n} kids at home. How do I keep it from turning into chaos?",
            "My son is nervous about starting at a new school in {month}. How can I help?",
            "What are good rainy-day activities for children that don't involve a tablet?",
            "{name}'s teacher says she daydreams in class. Should I be worried?",
            "How do I get the kids to help with chores?",
        ],
        assistant=[
            "A fixed homework time after a snack and some play works better than starting straight after school.",
            "Many families aim for a couple of hours of recreational screen time a day, with screens off before bed.",
            "Plan three short games, a craft and food, and keep the party to two hours; children get tired quickly.",
            "Visit the new school together before the first day and talk about what will stay the same.",
            "Building a blanket fort, baking, or a treasure hunt around the house fill a rainy afternoon nicely.",
            "Some daydreaming is normal; ask the teacher whether it affects learning before worrying.",
            "A simple chart with two small chores each and a weekly reward makes helping a habit.",
            "Children cooperate more when they get a choice between two options you are happy with.",
            "Reading together every evening, even for ten minutes, does a lot for vocabulary and calm.",
            "Name the feeling before solving the problem: it helps a child calm down faster than arguing.",
            "Keep a box of craft supplies ready so you can say yes to a project without preparation.",
            "Consistent bedtimes matter more than the exact hour; the routine itself signals sleep.",
            "Let children pack their own school bag the night before; mornings become much smoother.",
            "Praising effort rather than talent makes children more willing to try hard things.",
            "Board games teach turn-taking, losing gracefully and counting all at once.",
            "A weekly one-to-one outing with each child, even a short walk, strengthens the bond.",
        ],
    ),
    "pets": Topic(
        user=[
            "Our dog barks every time someone walks past the window. How do I stop it?",
            "How often should a cat see the vet if it seems healthy?",
            "We're thinking of getting a rabbit for the kids. Are they easy pets?",
            "My cat keeps scratching the sofa. What can I do?",
            "{name} is going away for {n} days and asked me to look after her parrot. What should I know?",
            "What human foods are dangerous for dogs?",
            "Is pet insurance worth it?",
        ],
        assistant=[
            "Block the view with frosted film at the dog's eye height and reward quiet when people pass.",
            "A healthy adult cat should see the vet once a year for a check-up and vaccinations.",
            "Rabbits are social and need space and company; they are less easy than people think.",
            "Give the cat a tall, sturdy scratching post right next to the sofa and reward it for using the post.",
            "Parrots need daily attention, fresh food and water, and a quiet covered cage at night.",
            "Chocolate, grapes, raisins, onions and anything with xylitol are dangerous for dogs.",
            "Insurance makes sense if an unexpected vet bill of a few thousand would hurt your finances.",
            "Puzzle feeders slow down fast eaters and keep clever dogs busy for a while.",
            "Older cats often drink more water; mention it at the next check-up, as it can point to kidney issues.",
            "Short training sessions of five minutes, a few times a day, work better than one long session.",
            "A tired dog is a calm dog: an extra walk often fixes problems people blame on bad behaviour.",
            "Brush long-haired cats a few times a week to prevent painful mats.",
            "Introduce a new pet to a resident one slowly, through a closed door first and by swapping scents.",
            "Keep a pet's vaccination records and microchip number in one place in case you travel.",
            "Dental chews help, but brushing a dog's teeth is the only thing that really prevents tartar.",
            "Indoor cats need play every day; a wand toy for ten minutes mimics hunting and burns energy.",
        ],
    ),
    "sleep": Topic(
        user=[
            "I wake up at three in the morning and can't fall back asleep. What helps?",
            "Is it bad to drink coffee after lunch?",
            "How many hours of sleep does an adult really need?",
            "I've been getting headaches in the afternoon. Could it be my screen?",
            "My back hurts after sitting all day at my desk. Any simple exercises?",
            "{name} swears by magnesium before bed. Does it actually work?",
            "How do I get over jet lag faster after a long flight?",
        ],
        assistant=[
            "If you wake in the night, get up after twenty minutes and read in dim light until you feel sleepy again.",
            "Caffeine has a half-life of around five hours, so an afternoon coffee can still affect your sleep.",
            "Most adults need seven to nine hours; feeling rested without an alarm is the best sign you get enough.",
            "Afternoon headaches often come from dehydration, poor posture or eye strain; take screen breaks every hour.",
            "Cat-cow stretches, hip flexor stretches and a short walk every hour help a stiff back.",
            "Magnesium helps some people relax, but the evidence for sleep is modest; a steady routine matters more.",
            "Shift your sleep by an hour a day before flying and get morning daylight at your destination.",
            "Keep the bedroom cool, dark and quiet; around eighteen degrees suits most people.",
            "A consistent wake-up time, even at weekends, anchors your body clock better than anything else.",
            "Alcohol helps you fall asleep but makes the second half of the night restless.",
            "Write tomorrow's to-do list before bed so your mind does not keep rehearsing it.",
            "Raise your screen to eye level and keep it an arm's length away to reduce neck strain.",
            "Short naps of twenty minutes refresh without the grogginess of a long one.",
            "Drink a glass of water when you wake up; many people start the day mildly dehydrated.",
            "A warm shower an hour before bed helps the body cool down afterwards, which signals sleep.",
            "See a doctor if snoring is loud and you feel exhausted; sleep apnoea is common and treatable.",
        ],
    ),
    "travel": Topic(
        user=[
            "I'm thinking about a long weekend in {city}. What should I not miss?",
            "How early should I get to the airport for a short European flight?",
            "What is the best way to pack light for a week with only a cabin bag?",
            "Is it better to book trains in advance or buy tickets on the day?",
            "{name} and I want to do a road trip in {month}. How do we split the driving fairly?",
            "Any tips for sleeping on overnight buses?",
            "Should I exchange money before I leave or use my card abroad?",
        ],
        assistant=[
            "Walk the old town early in the morning, before the crowds, and leave one afternoon with no plan at all.",
            "Two hours before a short-haul flight is usually plenty, a little more in the busy summer months.",
            "Pack clothes that all match each other, roll them, and wear your bulkiest shoes on the journey.",
            "Long-distance trains are cheaper booked weeks ahead; regional trains usually cost the same on the day.",
            "Swap drivers every two hours or at each fuel stop; the passenger navigates and chooses the music.",
            "A neck pillow, earplugs and an eye mask turn an overnight bus from awful into bearable.",
            "A card without foreign transaction fees usually gives a better rate than exchanging cash at home.",
            "Download offline maps before you go; they save you when mobile data is expensive or patchy.",
            "Keep a photo of your passport in your email in case the original gets lost.",
            "Local markets are often the best and cheapest places to eat on a trip.",
            "Travel insurance is worth it mainly for medical costs and cancellations, not lost sunglasses.",
            "Shoulder season, spring and autumn, gives you good weather and fewer crowds in most of Europe.",
            "Learn five words in the local language; hello, please and thank you open a lot of doors.",
            "Book the first night's accommodation at least, so you are not searching late after a long journey.",
            "A small daypack that folds into your luggage is handy for day trips and markets.",
            "City passes only pay off if you visit several paid museums a day; do the maths before buying one.",
            "Night trains save a hotel night and a morning of travel; book a couchette well ahead.",
        ],
    ),
    "languages": Topic(
        user=[
            "I want to learn Spanish before a trip next year. How much can I learn in twelve months?",
            "Are language apps enough, or do I need a real class?",
            "I understand a lot of German but freeze when I have to speak. Any advice?",
            "{name} is a native Italian speaker and offered to practise with me. How do we structure it?",
            "How do I remember vocabulary for longer than a week?",
            "Is it realistic to learn two languages at the same time?",
        ],
        assistant=[
            "Half an hour a day for a year takes most people to a comfortable conversational level in Spanish.",
            "Apps are good for vocabulary, but speaking with real people is what turns knowledge into fluency.",
            "Freezing is normal; rehearse common situations aloud alone first, then with a patient partner.",
            "Split each session in half, one language each, and correct only the mistakes that block understanding.",
            "Spaced repetition flashcards bring words back just before you forget them, which keeps them for months.",
            "Two languages at once is possible if they are quite different and you keep separate times for each.",
            "Watching series you know well in the target language is an enjoyable way to train your ear.",
            "Label things around the house with sticky notes in the language you are learning.",
            "Think aloud in the new language while cooking or walking; it builds speed without pressure.",
            "A short diary of three sentences a day in the new language is excellent writing practice.",
            "Learn phrases, not single words; chunks like could I have come out more naturally.",
            "Podcasts for learners speak slowly and explain the tricky bits, which makes them good for commutes.",
            "Grammar makes sense faster once you have heard the patterns many times in real sentences.",
            "Online tutors from the country are often affordable and flexible about times.",
            "Do not wait until you feel ready to speak; nobody ever feels ready.",
        ],
    ),
    "games": Topic(
        user=[
            "We have friends over on {day}. Is there a board game for six that isn't too complicated?",
            "I want to get into chess as an adult. Where should I start?",
            "{name} keeps winning at every card game. Any strategy tips?",
            "Are escape rooms fun for people who have never done one?",
            "What is a good puzzle game to play on the train?",
            "How do I organise a quiz night for the neighbours?",
        ],
        assistant=[
            "Party games with simple rules, where everyone plays every round, work best for six people.",
            "Learn the basic opening principles and solve a few tactics puzzles every day; that is most of early chess.",
            "In most card games, counting what has been played and watching what others discard wins more than luck.",
            "Escape rooms designed for beginners are great fun; go with people who talk to each other a lot.",
            "Logic puzzles like nonograms or sudoku are perfect for short train rides.",
            "For a quiz night, six rounds of eight questions, a picture round and a tie-breaker keep it lively.",
            "Cooperative board games avoid the sore losers because everyone wins or loses together.",
            "Teach a new game by playing an open practice round first with all cards face up.",
            "Jigsaw puzzles of a thousand pieces fill a long weekend and are oddly relaxing.",
            "Word games are a nice bridge for mixed groups because no one needs to learn special rules.",
            "A tournament bracket and a silly trophy make a regular game night feel like an event.",
            "Online chess sites match you with players of your level, which makes learning less discouraging.",
            "Keep the rules summary on one card by the board so nobody has to hunt through the booklet.",
            "Deduction games where players hide a role are the loudest and funniest with large groups.",
        ],
    ),
    "outdoors": Topic(
        user=[
            "We want to do a day hike in the hills this {month}. What should we bring?",
            "Is it safe to go hiking alone?",
            "How do I choose a tent for two people that isn't too heavy?",
            "The forecast says rain all weekend. Any good outdoor plans anyway?",
            "{name} wants to try wild swimming in the lake. What should we know first?",
            "What's a good first camping trip for a family with small kids?",
        ],
        assistant=[
            "Bring layers, a waterproof jacket, water, snacks, a map and a small first-aid kit, even for a short hike.",
            "Hiking alone is fine on known trails if someone knows your route and your expected return time.",
            "A two-person tent under two kilos with a free-standing frame is a good balance of weight and comfort.",
            "Woodland walks stay pleasant in the rain, and waterfalls are at their best after a wet week.",
            "Check the water temperature, never swim alone, and get in slowly to avoid cold-water shock.",
            "A campsite with toilets and a short walk from the car is ideal for a first trip with small children.",
            "Start early in summer to avoid the afternoon heat and thunderstorms in the mountains.",
            "Break in new boots on short walks before a long hike to avoid blisters.",
            "Tell someone your plan and carry a power bank; phones drain fast in the cold.",
            "Leave no trace: carry out everything you carried in, including fruit peel.",
            "A head torch is the one item people forget most often, and the one they miss the most.",
            "Trekking poles take strain off the knees on long descents.",
            "Weather in the hills changes fast; turn back if the cloud drops and you lose the path.",
            "A thermos of tea at the top of a cold walk feels like the best drink in the world.",
        ],
    ),
    "moving": Topic(
        user=[
            "We are moving to a bigger flat in {month}. What should I start doing now?",
            "How do I pack the kitchen without breaking half the plates?",
            "Is it worth hiring movers for a one-bedroom flat?",
            "What should I check before signing a lease?",
            "{name} offered her van for the move. How do we thank her properly?",
            "How do I make a new neighbourhood feel like home faster?",
        ],
        assistant=[
            "Start by sorting what you no longer need; every box you do not move saves time on both ends.",
            "Wrap plates individually in paper and stand them on their edge in the box, like records.",
            "For a one-bedroom flat, movers cost a few hundred but save a weekend and a sore back.",
            "Check the deposit terms, who fixes what, the notice period and the meter readings on the day you move in.",
            "Fill the tank, clean the van and cook her dinner; a small gift card also goes down well.",
            "Find a café, a shop and a walking route in the first week; routines make a place familiar.",
            "Label each box with its room and a short list of contents on two sides.",
            "Keep a first-night box with sheets, towels, a kettle, mugs, chargers and toilet paper.",
            "Take photos of the flat's condition when you move in, in case of a dispute about the deposit later.",
            "Redirect your post and update your address with the bank, the doctor and your employer.",
            "Measure doorways and stairwells before moving large furniture; sofas get stuck more than you would think.",
            "Book the parking space for the van with the city if your street needs a permit.",
            "Introduce yourself to the neighbours in the first days; it is much harder after a few months.",
            "Moving is tiring; plan easy meals for the first week instead of expecting to cook.",
        ],
    ),
    "gadgets": Topic(
        user=[
            "My phone battery is dead by the afternoon. Is it time for a new phone?",
            "What should I look for in a laptop for writing and video calls?",
            "Are smart speakers a privacy risk?",
            "How do I back up my photos so I never lose them?",
            "{name} got me wireless earbuds but they keep dropping out. Any fix?",
            "Is it safe to leave my phone charging overnight?",
        ],
        assistant=[
            "A battery that dies by the afternoon after two or three years is worn; replacing just the battery is cheaper than a new phone.",
            "For writing and calls, a comfortable keyboard, a good webcam and sixteen gigabytes of memory matter more than the processor.",
            "Smart speakers listen for the wake word locally, but check the settings and delete recordings regularly.",
            "Follow the three-two-one rule: three copies, on two kinds of storage, one of them somewhere else.",
            "Dropouts often come from interference; forget the device, reset the earbuds and pair them again.",
            "Modern phones stop charging at full and manage heat; overnight charging is fine on a hard surface.",
            "Turn off background refresh for apps you rarely use; it saves battery and data.",
            "A password manager is the single best security step most people can take.",
            "Update your router's firmware and change its default password; many never do.",
            "A cheap screen protector and a case prevent most of the damage phones suffer.",
            "Clear out old apps and large videos when storage fills up; photos are rarely the real culprit.",
            "Two-factor authentication on your email protects every other account that resets through it.",
            "An external monitor at eye level makes laptop work much kinder to your neck.",
            "Keep devices out of hot cars; heat harms batteries more than anything else.",
        ],
    ),
    "social": Topic(
        user=[
            "I always forget my friends' birthdays. How do people keep track?",
            "{name} and I had a silly argument and haven't spoken for a week. How do I break the ice?",
            "How do I make new friends in my thirties after moving to {city}?",
            "I need to give a short speech at a colleague's leaving party. Any tips?",
            "What is a thoughtful gift for someone who says they want nothing?",
            "How do I politely leave a party early?",
        ],
        assistant=[
            "Put every birthday into your calendar with a reminder a week ahead, so there is time to send something.",
            "A short, warm message that skips the argument and suggests something simple, like a coffee, usually works.",
            "Join something that meets weekly, a class, a club or a volunteer group; friendships grow from repetition.",
            "Keep a leaving speech to two minutes: one funny story, one sincere thank-you and a toast.",
            "An experience, like a meal out together or a class, suits people who do not want more things.",
            "Thank the host, say you have an early start, and leave without a long round of goodbyes.",
            "Remembering small details people tell you, and asking about them later, makes them feel valued.",
            "Group chats drift; a regular fixed date, like the first Friday of the month, keeps friends meeting.",
            "Handwritten cards are rare now, which is exactly why people keep them.",
            "Say yes to invitations for a few months after moving, even when you are tired.",
            "When you are nervous at a party, ask people questions; most people love to talk about their plans.",
            "Hosting a simple potluck takes the pressure off cooking and brings people together.",
            "Apologise for your part only, without adding but; it opens the door for the other person.",
        ],
    ),
    "weather": Topic(
        user=[
            "It's been so grey for weeks. Does light therapy actually help with winter blues?",
            "How do I keep the flat cool during a heatwave without air conditioning?",
            "Should I bring a coat for {city} in {month}?",
            "What's the best way to dry laundry indoors in winter without damp?",
            "The storm last night knocked over our fence. Who pays for that, us or the neighbour?",
        ],
        assistant=[
            "A light box used for twenty to thirty minutes each morning helps many people through dark winters.",
            "Close blinds on the sunny side during the day and open windows on both sides at night for a cross draught.",
            "Evenings there can be cool even in warm months, so a light jacket is a safe bet.",
            "Dry laundry in a room with an open window or a dehumidifier, not in the bedroom.",
            "Boundary fences are usually the owner's responsibility; check your deeds or ask the neighbour politely.",
            "A brisk walk at lunchtime gives you daylight when it is strongest in winter.",
            "Put a damp towel in front of a fan for a cheap cooling effect in a heatwave.",
            "Weather apps differ a lot; look at two and expect the truth to be somewhere between them.",
            "Keep a small umbrella in your bag through spring; showers come out of nowhere.",
            "Vitamin D in winter is often recommended in northern countries; ask your doctor about the dose.",
            "Cold, bright days are perfect for a long walk; wrap up well and take a warm drink.",
            "Check the gutters before autumn storms; blocked gutters cause most of the water damage.",
        ],
    ),
}

# Turns that could follow any other: a person keeping the conversation going, and an assistant's small
# courtesies. Sessions mix them in so that not every turn is about the topic.
USER_ASIDES = [
    "Thanks, that helps a lot.",
    "Hmm, I hadn't thought of that. Tell me more?",
    "Okay. And what would you do in my place?",
    "That sounds like a lot of work, honestly.",
    "Good point. Let me think about it over the weekend.",
    "Makes sense. Can you give me a shorter version I can remember?",
    "Sorry, I got distracted, the doorbell rang. Where were we?",
    "Right, that's what {name} said too.",
    "I'll try that on {day} and report back.",
    "Interesting. Is there a cheaper way to do the same thing?",
    "What is the most common mistake people make with this?",
    "Could you put that into a short checklist?",
]
ASSISTANT_ASIDES = [
    "Happy to help with that.",
    "That is a common situation, and there are a few good options.",
    "Let me break it into steps.",
    "The short answer is yes, with one caveat.",
    "It depends a little on your circumstances, but here is what usually works.",
    "Good question; people often overlook this part.",
    "If you only remember one thing, make it this one.",
    "You are already doing more than most people do.",
    "Here is a simple way to think about it.",
    "There is no single right answer, but a few rules of thumb help.",
]


# What people mention about their own lives while talking about something else: "{relation} {name} {event}".
# Distractor sessions carry these, so a question about one person's fact meets many like it.
RELATIONS = [
    "My cousin",
    "My neighbour",
    "My colleague",
    "My old school friend",
    "My brother-in-law",
    "My aunt",
    "My flatmate",
    "My best friend",
    "My boss",
    "My niece",
    "My uncle",
    "My running partner",
    "A friend from my choir",
    "My partner's sister",
    "My godson",
]
EVENTS = [
    "just moved to {city} for work",
    "adopted a rescue dog called {name}",
    "started a new job in {city} on {day}",
    "is getting married in {month}",
    "bought a second-hand {color} van",
    "broke her wrist skiing last {month}",
    "finished his first marathon in {city}",
    "is learning to play the cello",
    "opened a small bakery in {city}",
    "has been promoted twice this year",
    "is training to become a nurse",
    "went vegan in {month}",
    "lost her phone on the train on {day}",
    "is renovating an old farmhouse near {city}",
    "had a baby boy in {month}",
    "took up pottery classes on {day}s",
    "is cycling from {city} to the coast",
    "got a cat named {name}",
    "retired in {month} after thirty years",
    "is studying for a law degree",
    "is visiting us from {city} next {day}",
    "won a pub quiz with my team on {day}",
    "is moving back home in {month}",
    "started growing tomatoes on her balcony",
    "sold his car and only cycles now",
    "booked a trip to {city} for {month}",
    "switched to a four-day week",
    "got a puppy for her birthday",
    "is allergic to cats, which is awkward at our place",
    "planted an apple tree in the garden",
    "learned to drive at fifty",
    "runs a book club on {day}s",
]


@dataclass
class Story:
    """One question and the turns that answer it. `sessions` holds one list of turns per gold session
    (inserted in that order into a session about something else); a turn is "u:text" (the person) or
    "a:text" (the assistant), with a leading "*" if it answers the question. `lures` share the
    question's words without answering it; they go into other sessions of the haystack."""

    id: str
    category: str
    question: str
    sessions: list[list[str]]
    lures: list[str] = field(default_factory=list)


STORIES: list[Story] = [
    # ---- a fact the person stated once, in passing (single session)
    Story(
        "kitten-name",
        "lc_user",
        "What did we name the kitten we adopted?",
        [
            [
                "*u:Quick update before my question: we finally adopted the grey kitten from the shelter on Saturday, and the kids named her Pepper."
            ]
        ],
        [
            "Adopting an adult cat instead of a kitten is often easier, since their character is already known.",
            "A short name with a clear sound is easiest for a pet to learn.",
        ],
    ),
    Story(
        "sister-city",
        "lc_user",
        "Which city did my sister move to?",
        [["*u:My sister Lotte just moved to Rotterdam for her new job, so I'll probably visit her a lot this year."]],
        [
            "Moving to a new city alone is hard for the first months, whoever you are.",
            "My cousin keeps talking about moving abroad but never does.",
        ],
    ),
    Story(
        "commute-time",
        "lc_user",
        "How long is my commute to the office?",
        [
            [
                "*u:The worst part of my day is the commute: forty-five minutes each way on the S-Bahn, standing most of the time."
            ]
        ],
        [
            "A long commute is easier with an audiobook or a podcast you look forward to.",
            "Working from the office two days a week is a common compromise now.",
        ],
    ),
    Story(
        "allergy",
        "lc_user",
        "What am I allergic to?",
        [["*u:Just so you know for recipes, I'm allergic to hazelnuts, even a trace gives me a rash."]],
        [
            "Food allergies in adults can appear suddenly, even to things you ate for years.",
            "Hay fever season is brutal this year, everyone at work is sneezing.",
        ],
    ),
    Story(
        "car-model",
        "lc_user",
        "What car did I buy?",
        [
            [
                "*u:I finally bought a car last week: a used Skoda Octavia estate, 2019, silver, with only 60,000 kilometres on it."
            ]
        ],
        [
            "Buying a used car from a dealer usually comes with a short warranty, unlike a private sale.",
            "Electric cars are getting cheaper to buy second hand.",
        ],
    ),
    Story(
        "dentist",
        "lc_user",
        "When is my dentist appointment?",
        [["*u:Remind me later that my dentist appointment got moved to Thursday the 14th at 8:15, before work."]],
        [
            "Most dentists recommend a check-up and cleaning every six months.",
            "An electric toothbrush does a noticeably better job than a manual one for most people.",
        ],
    ),
    Story(
        "grandma-recipe",
        "lc_user",
        "What dish did my grandmother teach me to cook?",
        [
            [
                "*u:My grandmother taught me to make her plum dumplings when I was ten, and I still make them every autumn."
            ]
        ],
        [
            "Family recipes are worth writing down before they get lost.",
            "Cooking with grandparents is one of the nicest memories many people have.",
        ],
    ),
    Story(
        "marathon-time",
        "lc_user",
        "What was my finishing time in the half marathon?",
        [["*u:I did it! Finished the half marathon on Sunday in 1:52:40, way under my goal of two hours."]],
        [
            "A half marathon needs about twelve weeks of training for a beginner.",
            "Race day nerves are normal; stick to the pace you trained at.",
        ],
    ),
    Story(
        "plant-gift",
        "lc_user",
        "Which plant did my colleague give me?",
        [["*u:A colleague gave me a monstera as a leaving present and I'm terrified of killing it."]],
        [
            "Most houseplants die from too much water rather than too little.",
            "A plant is a thoughtful gift for a new flat.",
        ],
    ),
    Story(
        "degree",
        "lc_user",
        "What did I study at university?",
        [["*u:Funny enough, I studied marine biology at university before ending up in accounting."]],
        [
            "A lot of people end up working in something quite different from what they studied at university.",
            "Going back to university as an adult is more common than people think.",
        ],
    ),
    Story(
        "bike-stolen",
        "lc_user",
        "Where was my bike stolen?",
        [["*u:Bad week: someone stole my bike from outside the train station, even though it was locked."]],
        [
            "A good D-lock and registering the frame number make a bike much less attractive to thieves.",
            "Bike insurance is cheap compared to a new bicycle.",
        ],
    ),
    Story(
        "violin-teacher",
        "lc_user",
        "What is my violin teacher's name?",
        [["*u:My new violin teacher, Mrs Okonkwo, says I hold the bow too tightly."]],
        [
            "Violin is one of the harder instruments to start as an adult because of intonation.",
            "A good teacher makes all the difference in the first year.",
        ],
    ),
    # ---- something the assistant said (single session)
    Story(
        "game-recommend",
        "lc_assistant",
        "Which board game did you suggest for our game night with six friends?",
        [
            [
                "u:We're six for game night on Friday, some have never played anything beyond cards. What should I buy?",
                "*a:Get Wavelength: it plays up to twelve, teaches in two minutes, and the guessing sparks great arguments among friends.",
            ]
        ],
        [
            "Game nights work better with snacks that don't leave greasy fingers on the cards.",
            "Six players is the awkward number for many strategy games.",
        ],
    ),
    Story(
        "sourdough-ratio",
        "lc_assistant",
        "What hydration did you recommend for my first sourdough loaf?",
        [
            [
                "u:I want to bake my first sourdough this weekend. How wet should the dough be?",
                "*a:For a first loaf keep hydration at about 70 percent: 700 grams of water per kilo of flour is forgiving and still gives an open crumb.",
            ]
        ],
        [
            "Sourdough starters need feeding once a day when kept at room temperature.",
            "Bread baked at home tastes better the day after.",
        ],
    ),
    Story(
        "knee-exercise",
        "lc_assistant",
        "What exercise did you suggest for my sore knee?",
        [
            [
                "u:My knee aches after running downhill. Anything I can do at home?",
                "*a:Try wall sits: back against the wall, knees at ninety degrees, thirty seconds, five times a day; they strengthen the quads that protect the knee.",
            ]
        ],
        [
            "Knee pain that swells or locks should be seen by a doctor.",
            "Running downhill is harder on the joints than running uphill.",
        ],
    ),
    Story(
        "book-recommend",
        "lc_assistant",
        "What novel did you recommend for my flight to Japan?",
        [
            [
                "u:I have a twelve-hour flight to Japan next month. Any novel that will make the time fly?",
                "*a:Take The Remains of the Day by Kazuo Ishiguro: quiet, beautifully written, and about the length of the flight.",
            ]
        ],
        [
            "Long flights are easier if you walk around the cabin every couple of hours.",
            "Japanese novels in translation have become very popular.",
        ],
    ),
    Story(
        "paint-brand",
        "lc_assistant",
        "How many coats of paint did you say the nursery needs?",
        [
            [
                "u:We are painting the nursery sage green over a dark red wall. How much paint should I buy?",
                "*a:Over dark red you need a stain-blocking primer first and then three coats of the sage; buy about five litres for a small room.",
            ]
        ],
        [
            "Paint fumes are lower with water-based paints, which matters in a child's room.",
            "A nursery does not need to be decorated before the baby comes.",
        ],
    ),
    Story(
        "tomato-fix",
        "lc_assistant",
        "What did you tell me to do about the cracks in my tomatoes?",
        [
            [
                "u:Half my tomatoes split open on the vine this week. Why?",
                "*a:Cracking comes from uneven watering: a dry spell then a downpour. Water deeply every two days at the same time, and mulch to keep the soil evenly moist.",
            ]
        ],
        [
            "Cherry tomatoes are the easiest variety for a first vegetable garden.",
            "Green tomatoes ripen indoors on a windowsill next to a banana.",
        ],
    ),
    # ---- a preference the person stated (single session)
    Story(
        "coffee-pref",
        "lc_preference",
        "How do I take my coffee?",
        [["*u:For the record, I only drink my coffee black, no sugar, and never after 2 pm or I can't sleep."]],
        [
            "Coffee made with a moka pot is stronger than drip coffee.",
            "Some people add cinnamon to their coffee instead of sugar.",
        ],
    ),
    Story(
        "seat-pref",
        "lc_preference",
        "Do I prefer a window or an aisle seat on flights?",
        [["*u:Always book me an aisle seat when you help with flights; I get claustrophobic by the window."]],
        [
            "Seats over the wing are the least bumpy in turbulence.",
            "Some airlines charge extra for choosing a seat in advance.",
        ],
    ),
    Story(
        "hotel-pref",
        "lc_preference",
        "What kind of place do I like to stay in when I travel?",
        [["*u:I'm not a hotel person; I'd rather stay in small family-run guesthouses, even if the rooms are basic."]],
        [
            "Hotels near the station are convenient but often noisy.",
            "Travel booking sites show the cheapest rooms first.",
        ],
    ),
    Story(
        "workout-pref",
        "lc_preference",
        "What time of day do I like to exercise?",
        [["*u:I'm definitely a morning exerciser: I swim at 6:30 before work, evenings I'm useless."]],
        [
            "Evening workouts can make it harder to fall asleep for some people.",
            "Gyms are busiest between five and seven in the evening.",
        ],
    ),
    Story(
        "music-pref",
        "lc_preference",
        "What kind of music do I listen to when working?",
        [["*u:When I work I only listen to Brazilian bossa nova, anything with English lyrics distracts me."]],
        [
            "Music while studying helps some people and distracts others.",
            "Noise-cancelling headphones make an open office bearable.",
        ],
    ),
    # ---- facts spread over several sessions
    Story(
        "books-count",
        "lc_multi",
        "Which books did I finish reading this year?",
        [
            ["*u:I finished reading Piranesi last night, what a strange and lovely book."],
            ["*u:Another one done: I finished Klara and the Sun on the train this morning."],
            ["*u:I just finished The Overstory, it took me the whole month but it was worth it."],
        ],
        [
            "Reading challenges on apps can make reading feel like homework.",
            "My book club never actually finishes the book.",
        ],
    ),
    Story(
        "wedding-tasks",
        "lc_multi",
        "What have I already done to prepare for my brother's wedding?",
        [
            ["*u:For my brother's wedding I've booked the hotel room in Ghent for the weekend of the 21st."],
            ["*u:Bought the suit for my brother's wedding today, dark blue, the tailor will shorten the trousers."],
        ],
        [
            "Wedding guests spend more than they expect on travel and gifts.",
            "Writing a toast for a wedding is easier if you collect stories from friends.",
        ],
    ),
    Story(
        "running-races",
        "lc_multi",
        "Which races have I signed up for?",
        [
            ["*u:I signed up for the city 10k in April, my first race in years."],
            ["*u:Got a place in the Berlin half marathon lottery, so that's September sorted."],
        ],
        ["Race entry fees have gone up a lot in recent years.", "Many races sell out within hours of opening."],
    ),
    Story(
        "pet-vet",
        "lc_multi",
        "What did the vet say about my dog across the visits?",
        [
            ["*u:Took Bruno to the vet, she says he's two kilos overweight and needs fewer treats."],
            ["*u:Back at the vet with Bruno, his ear infection has cleared up but his teeth need cleaning."],
        ],
        [
            "Vet bills for dogs rise with age, so insurance early is cheaper.",
            "Dogs that eat too fast can get stomach problems.",
        ],
    ),
    Story(
        "trips-year",
        "lc_multi",
        "Which countries have I visited this year?",
        [
            ["*u:Just got back from a week in Portugal, the food was incredible."],
            ["*u:Our long weekend in Slovenia was great, Lake Bled is even prettier than the photos."],
            ["*u:Back from Norway, we saw the fjords by boat and it rained every single day."],
        ],
        [
            "Travel in the off season is cheaper but some attractions close.",
            "I always want to visit more countries than I have holidays.",
        ],
    ),
    Story(
        "garden-harvest",
        "lc_multi",
        "What vegetables have I harvested from my garden so far?",
        [
            ["*u:First harvest from the garden: a whole basket of courgettes, more than we can eat."],
            ["*u:The garden gave us the first runner beans today, and a few small carrots."],
        ],
        [
            "A small garden can produce a surprising amount of food if it gets sun.",
            "Harvesting in the morning keeps vegetables crisp.",
        ],
    ),
    Story(
        "course-progress",
        "lc_multi",
        "What online courses have I completed?",
        [
            ["*u:I completed the online course on photography basics, got the certificate today."],
            ["*u:Finally completed that Python for beginners course I started in winter."],
        ],
        [
            "Online courses have low completion rates, most people stop after the first week.",
            "A certificate matters less than the projects you build.",
        ],
    ),
    Story(
        "friends-babies",
        "lc_multi",
        "Which of my friends had babies recently?",
        [
            ["*u:Big news, my friend Selin had a baby girl on Tuesday, they named her Ada."],
            ["*u:My old flatmate Tom and his wife had twins last week, two boys!"],
        ],
        [
            "Visiting friends with a new baby: bring food, stay short.",
            "Baby showers are becoming more common in Europe.",
        ],
    ),
    Story(
        "house-repairs",
        "lc_multi",
        "What repairs have we had done on the house this year?",
        [
            ["*u:The roofer came and replaced the broken tiles above the kitchen, finally no more leak."],
            ["*u:We had the old boiler replaced with a heat pump last month, the house is warmer already."],
        ],
        ["House repairs always take longer and cost more than quoted.", "Get three quotes for any big repair job."],
    ),
    Story(
        "concerts",
        "lc_multi",
        "Which concerts have I been to this year?",
        [
            ["*u:Saw Rosalía live in Barcelona last night, the show was unreal."],
            ["*u:The jazz concert at the Konzerthaus with Brad Mehldau was quiet and perfect."],
        ],
        [
            "Concert tickets sell out in minutes now, it's so frustrating.",
            "Earplugs at concerts protect your hearing without spoiling the music.",
        ],
    ),
    # ---- a fact that changed later (the question asks for the current one)
    Story(
        "gym-change",
        "lc_update",
        "Which gym am I a member of now?",
        [
            ["*u:I joined the FitZone gym near the office, the membership is 39 a month."],
            ["*u:I cancelled FitZone and switched to the climbing gym, Boulderwelt, it's more fun than lifting."],
        ],
        [
            "Gym memberships are cheaper if you sign up in January when they run offers.",
            "Climbing gyms have become hugely popular in the last few years.",
        ],
    ),
    Story(
        "job-title",
        "lc_update",
        "What is my job title now?",
        [
            ["*u:I started my new job as a junior analyst at the insurance company, still learning the ropes."],
            ["*u:Good news at work: I was promoted to senior analyst after the annual review."],
        ],
        [
            "Job titles mean different things at different companies.",
            "A promotion often brings more meetings than money.",
        ],
    ),
    Story(
        "flat-rent",
        "lc_update",
        "How much rent do I pay now?",
        [
            ["*u:Our rent is 1,150 a month for the two-bedroom, which is fine for the area."],
            ["*u:The landlord raised the rent to 1,290 from next month, I'm not happy about it."],
        ],
        [
            "Rent increases are limited by law in some cities.",
            "Splitting rent by room size is fairer in a shared flat.",
        ],
    ),
    Story(
        "partner-city",
        "lc_update",
        "Where does my girlfriend live at the moment?",
        [
            ["*u:My girlfriend Mira lives in Hamburg, so we see each other every other weekend."],
            ["*u:Mira moved to Munich for her PhD, so now it's a five-hour train ride to see her."],
        ],
        [
            "Long-distance relationships need a plan for when you'll live in the same place.",
            "Train travel between big cities is often faster than flying once you count the airport.",
        ],
    ),
    Story(
        "daily-steps",
        "lc_update",
        "What is my daily step goal now?",
        [
            ["*u:I set my watch to a daily step goal of 8,000, which I reach most days."],
            ["*u:I raised my step goal to 11,000 a day, I want to walk to work more."],
        ],
        [
            "Ten thousand steps a day is a marketing number more than a medical one.",
            "Walking meetings are a nice way to move more at work.",
        ],
    ),
    Story(
        "diet-change",
        "lc_update",
        "Do I eat meat these days?",
        [
            ["*u:I've cut down on meat, I only have it at weekends now."],
            ["*u:Update: I've gone fully vegetarian since March, no meat or fish at all."],
        ],
        [
            "A vegetarian diet needs a little attention to iron and vitamin B12.",
            "Many restaurants now have more than one vegetarian dish on the menu.",
        ],
    ),
    # ---- more single facts, asked in other words than they were stated
    Story(
        "anniversary",
        "lc_user",
        "When is our wedding anniversary?",
        [["*u:We got married on the 3rd of June, so I need to plan something special for that date."]],
        [
            "Anniversary gifts have traditional themes for each year, like paper for the first.",
            "Couples often forget anniversaries once they have kids.",
        ],
    ),
    Story(
        "boss-name",
        "lc_user",
        "What is my manager called?",
        [["*u:My manager Henrik wants the quarterly report by Friday, and he's not flexible about deadlines."]],
        ["A good manager protects the team from unnecessary meetings.", "Managing up is a skill nobody teaches you."],
    ),
    Story(
        "blood-type",
        "lc_user",
        "What is my blood type?",
        [
            [
                "*u:At the blood donation they told me I'm O negative, the universal donor, so they want me back every few months."
            ]
        ],
        [
            "Blood donation takes about an hour including the snack afterwards.",
            "You need to wait a few months between blood donations.",
        ],
    ),
    Story(
        "first-concert",
        "lc_user",
        "What was the first concert I ever went to?",
        [["*u:My first ever concert was Oasis in 1997, my dad took me and I was fourteen."]],
        [
            "Concerts from the nineties were so much cheaper than today.",
            "A first concert often shapes musical taste for life.",
        ],
    ),
    Story(
        "shoe-size",
        "lc_user",
        "What shoe size do I wear?",
        [["*u:Shopping tip for me: I wear a 44 in running shoes but a 43 in everything else."]],
        [
            "Running shoes should have a thumb's width of space at the toe.",
            "Feet swell during the day, so try shoes on in the afternoon.",
        ],
    ),
    Story(
        "tea-gift",
        "lc_assistant",
        "What gift did you suggest for my mother's seventieth birthday?",
        [
            [
                "u:My mother turns seventy in May and says she wants nothing. Ideas?",
                "*a:Give her a printed photo book of her seventy years, with captions from the family; people treasure those long after any object.",
            ]
        ],
        [
            "Birthday gifts for parents get harder every year.",
            "A surprise party for a seventieth can be too much for some people.",
        ],
    ),
    Story(
        "budget-tool",
        "lc_assistant",
        "Which budgeting method did you recommend to me?",
        [
            [
                "u:I always run out of money before payday. What method should I use?",
                "*a:Use zero-based budgeting: before the month starts, give every euro of your salary a job, until income minus plans is exactly zero.",
            ]
        ],
        [
            "Budgeting apps are only useful if you open them.",
            "Running out of money before payday is more common than people admit.",
        ],
    ),
    Story(
        "chess-opening",
        "lc_assistant",
        "Which chess opening did you tell me to learn first?",
        [
            [
                "u:I want to stop losing in the first ten moves of chess. Which opening should I study?",
                "*a:Learn the Italian Game: e4, Nf3, Bc4. It develops pieces naturally and teaches the ideas every beginner needs.",
            ]
        ],
        [
            "Chess openings matter less than tactics below a rating of 1500.",
            "Losing quickly in chess is usually about leaving pieces undefended.",
        ],
    ),
    Story(
        "moving-date",
        "lc_update",
        "When is our moving day?",
        [
            ["*u:We finally have a date: the movers come on the 28th of August."],
            ["*u:The movers had to reschedule us, moving day is now the 4th of September."],
        ],
        [
            "Moving at the end of the month is more expensive because everyone moves then.",
            "Book movers at least a month in advance in summer.",
        ],
    ),
    Story(
        "kid-school",
        "lc_multi",
        "What activities are my kids signed up for this term?",
        [
            ["*u:Signed Emma up for swimming lessons on Wednesdays, she's thrilled."],
            ["*u:Leo starts football training on Saturday mornings this term."],
        ],
        [
            "Too many after-school activities can tire children out.",
            "Swimming lessons are often fully booked a term ahead.",
        ],
    ),
]
