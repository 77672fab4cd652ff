# ruff: noqa: E501  (sentences are kept one line each, as typed)
"""The fourth held-out long-session chat haystacks (issue 16, twelfth session): new material, its own seed.

`bench/eval/longchat.py` composes haystacks from this file exactly as it does from `longchat_world.py`,
`longchat_heldout.py`, `longchat_heldout2.py` and `longchat_heldout3.py` (tuning sets now), once a flag
loads it: 40 long sessions per haystack, 15-40 turns each, the facts stated once in passing inside
sessions about other things, two lures per story in other sessions. Every topic, sentence, slot filler,
aside, follow-up, event and story here is new: none is in any earlier set. It is written as people type
to a chat assistant about their lives and their side projects at once: lowercase, typos, half sentences,
plans, news about other people, a question now and then about code. Some questions are requests that
only a stated preference answers, some share few words with their answer, some span several sessions,
and some carry a time word.

* `WHEN`: for a story whose question says when ("last week", "back in the spring"), the range of days
  ago each of its gold sessions is placed in (what the words mean on the day they are asked); every
  other gold session gets a random age, as in the earlier sets.

Written by hand by the 'writerlc' helper and committed alone, before it was first run; never tuned on.
Do not edit it to move a figure: write another set.
"""

from __future__ import annotations

from bench.eval.longchat_world import Story, Topic

SEED = 9172604

SLOTS: dict[str, list[str]] = {
    "name": [
        "Aoife",
        "Brigid",
        "Caspar",
        "Dafne",
        "Emrys",
        "Flavia",
        "Goran",
        "Hedda",
        "Isolde",
        "Joaquin",
        "Kamil",
        "Liesel",
        "Matthias",
        "Nuno",
        "Ottilie",
        "Przemek",
        "Rhiannon",
        "Sindre",
        "Tamsin",
        "Ugne",
        "Vesna",
        "Wilhelmina",
        "Xander",
        "Yoshiro",
        "Zlata",
        "Ansel",
        "Beatriz",
        "Corentin",
        "Doina",
        "Eamon",
    ],
    "city": [
        "Ancona",
        "Bayonne",
        "Chur",
        "Debrecen",
        "Ennis",
        "Ferrara",
        "Gorizia",
        "Hasselt",
        "Ivrea",
        "Jyvaskyla",
        "Kiel",
        "Lugano",
        "Mechelen",
        "Nancy",
        "Olomouc",
        "Quimper",
        "Ravenna",
        "Sopron",
        "Tromso",
        "Zwolle",
    ],
    "day": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
    "month": [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ],
    "n": [str(i) for i in range(2, 13)],
}


TOPICS: dict[str, Topic] = {
    "sourdough": Topic(
        user=[
            "my loaf came out flat as a frisbee again, the crumb is all gummy in the middle",
            "how do i know when the bulk ferment is actually done, the recipes all say 'until jiggly'",
            "is it ok to use tap water for the starter or does the chlorine kill it",
            "the crust is pale even though i bake for 45 min, whats up with that",
            "{name} gave me a bit of her 20 year old starter, do i feed it differently from mine",
            "can i leave the dough in the fridge overnight or will it overproof",
            "what hydration should a beginner even go for, 70? 80?",
            "my kitchen is freezing in winter and nothing rises",
            "do i need a dutch oven or can i fake it with a tray",
            "there's a grey liquid on top of my starter, gross or fine",
            "how do people get those big open holes, mine is all tight and even",
            "scoring: my lame just drags through the dough and tears it",
            "i want to bake for the market stall on {day}, how many loaves can one oven do",
        ],
        assistant=[
            "A gummy middle usually means the loaf was cut too soon or underbaked; let it cool for at least an hour before slicing.",
            "Bulk fermentation is done when the dough has grown by about half, feels airy, and shows bubbles on the sides of a clear container.",
            "Most tap water is fine for a starter; if yours smells strongly of chlorine, leave it out in a jug overnight first.",
            "A pale crust often comes from too little steam early on or taking the lid off too late; try removing it after twenty minutes.",
            "An older starter behaves like any other once it lives in your kitchen: same flour, same feeding rhythm, and give it a week to settle.",
            "A night in the fridge slows fermentation right down, and many bakers shape in the evening and bake straight from cold in the morning.",
            "Start around 68 to 72 percent hydration; wetter doughs are harder to shape until your hands learn what to feel for.",
            "In a cold kitchen, put the dough in the oven with only the light on, or next to a radiator, to keep it around 24 degrees.",
            "A heavy pot with a lid traps steam best, but a tray of boiling water on the oven floor gets you most of the way.",
            "The grey liquid is called hooch; it means the starter is hungry, so pour it off or stir it in and feed it.",
            "An open crumb comes from strong gluten, a well-timed bulk and gentle shaping that doesn't knock out all the gas.",
            "Score with one quick, confident stroke at a shallow angle; a hesitant cut drags and tears the skin.",
            "A domestic oven can usually bake two loaves at a time, so plan the proofing in staggered batches an hour apart.",
            "Weigh everything, water included; cups and spoons vary too much for bread.",
            "Rye flour gives a sluggish starter a boost because it carries more wild yeast and nutrients.",
            "A banneton dusted with rice flour keeps the dough from sticking better than wheat flour does.",
            "Keep notes on times and temperatures for every bake; after five loaves the pattern of what went wrong becomes obvious.",
            "Stretch and folds every half hour in the first two hours build strength without any kneading.",
        ],
    ),
    "marathon_training": Topic(
        user=[
            "week {n} of the plan and my legs feel like concrete, is that supposed to happen",
            "how slow is 'easy pace' really, i feel like i'm walking",
            "do i need those gel things for long runs or can i just eat a banana",
            "my left knee aches on the outside after 15k",
            "{name} says i should run every long run at race pace, that sounds wrong",
            "what shoes, the shop guy wants me to buy carbon plates for 250",
            "i missed a whole week with a cold, do i just pick up where i left off",
            "is it bad if i skip the strength work, i hate the gym",
            "how much water should i drink during a 30k",
            "i keep getting chafing in places i won't mention",
            "should i run the long run on {day} or {day}, my week is a mess",
            "my watch says my recovery time is 72 hours, do i listen to it",
            "what do i eat the night before a big run",
        ],
        assistant=[
            "Heavy legs in the middle of a build are normal; the plan stacks fatigue on purpose and the taper takes it away.",
            "Easy pace should let you speak in full sentences; for most runners it is one to two minutes per kilometre slower than race pace.",
            "For runs over ninety minutes, taking in 30 to 60 grams of carbohydrate an hour helps, whether from gels, bananas or sweets.",
            "Pain on the outside of the knee after a certain distance is often the iliotibial band; hip strength work and a lower weekly jump usually help.",
            "Most long runs should be easy; a few sections at race pace late in the plan are enough.",
            "Carbon-plated shoes help most at faster paces; a comfortable, well-cushioned trainer is what most first-time marathoners need.",
            "After a week off ill, go back one week in the plan rather than jumping straight to where you stopped.",
            "Two short strength sessions a week, squats, lunges and calf raises at home, lower the risk of injury more than extra miles do.",
            "Drink to thirst on long runs, roughly a few sips every fifteen to twenty minutes, and add salt if it is hot.",
            "Anti-chafe balm applied before the run and seamless clothing prevent most rubbing; tape where it still happens.",
            "The long run fits best on the day after your easiest day, whichever day of the week that is.",
            "Watch recovery estimates are rough guesses; how your legs feel on an easy jog is a better guide.",
            "A normal dinner with a bit more rice or pasta than usual is enough the night before; avoid anything new.",
            "Run the last few kilometres of a long run a little faster only once the plan tells you to.",
            "Sleep is the training session nobody writes into the plan, and it matters as much as the miles.",
            "Increase weekly distance by no more than about ten percent at a time, with an easier week every fourth week.",
            "Practise your race-day breakfast and drinks on long runs so nothing surprises your stomach.",
            "Cadence drills and short strides after easy runs keep your legs quick without adding much fatigue.",
        ],
    ),
    "beekeeping": Topic(
        user=[
            "first hive inspection tomorrow and i'm honestly scared of getting stung in the face",
            "how do i tell if the queen is still there, i never spot her",
            "the bees are bringing in bright orange pollen, what flower is that",
            "there's a ton of drones in the hive, is that bad",
            "{name} says i should treat for varroa in {month}, is that the right time",
            "do i need to feed them sugar syrup going into winter",
            "one frame has cells with two or three eggs in each, what does that mean",
            "how much honey can i take without starving them",
            "the neighbours are nervous about the bees, how do i keep the peace",
            "should i wear gloves or go bare hands like the youtube guys",
            "i saw a few bees crawling on the ground unable to fly",
            "what's the point of a queen excluder",
            "my smoker keeps going out halfway through",
        ],
        assistant=[
            "A veil and calm, slow movements prevent nearly all face stings; bees react to fast movements and to breath near the hive.",
            "You don't need to see the queen: fresh eggs standing upright in the cells mean she was there in the last three days.",
            "Orange pollen in spring is often dandelion or crocus; pollen charts by colour help narrow it down.",
            "Plenty of drones in late spring and summer is normal; a colony raises them to mate with queens from other hives.",
            "Varroa treatment is usually done in late summer after the honey comes off, and again in midwinter when there is no brood.",
            "Feed a thick sugar syrup in early autumn if the hive feels light when you lift the back; a colony needs around 20 kilograms of stores for winter.",
            "Several eggs in one cell, laid on the walls, can point to laying workers, which happens when a colony has been queenless for weeks.",
            "Leave the brood box's honey alone and take only from the supers above it; that keeps the colony's own stores safe.",
            "A hedge or tall fence in front of the hive sends the bees up and over people's heads, and a jar of honey helps too.",
            "Thin nitrile gloves are a good middle ground: you keep your feel for the frames and still avoid most stings.",
            "Bees crawling and unable to fly can be old foragers at the end of their life, but many at once is worth a closer look for virus or poisoning.",
            "A queen excluder is a grid that lets workers through but not the larger queen, so the honey supers stay free of brood.",
            "Pack the smoker with dry material at the bottom and greener grass on top, and give it a few puffs every couple of minutes to keep it alight.",
            "Inspect on a warm, calm day around midday, when most foragers are out and the hive is quieter.",
            "Mark each hive's notes in a small book after every inspection: queen seen or eggs seen, temper, stores, space.",
            "Swarm season is roughly late spring to early summer, when queen cells along the bottom of frames are the warning sign.",
            "A water source near the hive, with stones for the bees to land on, keeps them out of your neighbour's pond.",
            "Join a local beekeeping association; a mentor looking into your hive once is worth a dozen videos.",
        ],
    ),
    "chess_club": Topic(
        user=[
            "lost 4 blitz games in a row online and now i want to throw my laptop in the canal",
            "how do i stop hanging my queen in the middle game",
            "is it worth memorising openings at my level or is that a trap",
            "{name} at the club always plays the london system and i never know what to do",
            "how much time should i spend on puzzles vs playing real games",
            "my first rated tournament is on {day}, how do i not freeze",
            "i always get into time trouble in long games",
            "what endgames should i actually know",
            "do i resign when i'm clearly lost or play on",
            "how do i analyse my games without just trusting the engine",
            "is it weird to bring snacks to a tournament",
            "the club meets on thursdays but i'm too tired after work to think",
            "i got crushed by a 10 year old. a literal child",
        ],
        assistant=[
            "Tilt after losses is common; a rule of stopping after two losses in a row saves a lot of rating points and mood.",
            "Before every move, check what your opponent's last move attacks; that one habit stops most hung pieces.",
            "At club level, knowing the ideas of one opening for white and one defence for each side is worth more than long memorised lines.",
            "Against the London, an early c5 and a queen on b6 put pressure on b2 and give you a clear plan.",
            "A mix works best: fifteen minutes of puzzles most days and a few longer games a week that you look at afterwards.",
            "Nerves before a first tournament fade after a few moves; arrive early, find your board and walk around the room once.",
            "Time trouble usually comes from long thinks in the opening; play your known moves quickly and save the clock for the hard positions.",
            "King and pawn against king, the basic rook endgames and checkmating with a rook cover most endgames a club player meets.",
            "Playing on in a lost position teaches you little at first; resigning when there's no hope is normal and polite.",
            "Go through the game on your own first, writing down what you thought at each key moment, and only then check with an engine.",
            "Snacks and water at a long tournament game are normal; a banana at move thirty can save a bad ending.",
            "If you're tired after work, play a shorter time control on club nights and save long games for weekends.",
            "Young juniors are often much stronger than their rating because they improve faster than the rating follows.",
            "Keep a simple file of your mistakes by type, tactics missed, time, plan; the biggest column tells you what to study.",
            "Playing slower online games, fifteen minutes or more, builds better habits than blitz.",
            "Put your pieces on squares where they control the centre before you start an attack.",
            "A trade when you are ahead in material makes the win simpler; avoid trades when you are behind.",
            "Solving a puzzle slowly and fully, including the opponent's best replies, beats rushing through twenty.",
        ],
    ),
    "flat_hunting": Topic(
        user=[
            "our landlord is selling so we have to be out by the end of {month}, panic mode",
            "every viewing has like 30 people, how do we stand out",
            "the agent wants 6 months rent upfront, is that even legal",
            "what do i check at a viewing besides mould",
            "{name} says never take a flat above a restaurant, is that snobby or wise",
            "how much of our income should rent be, we're looking at 40% right now",
            "the flat is perfect but the bedroom has no window, just a skylight",
            "should we get a letter from our old landlord",
            "there's a damp smell in the hallway but the flat itself seems fine",
            "is it worth paying for a removal company or just rent a van",
            "the inventory they sent is 2 pages for a whole flat",
            "how do we split rent fairly when one room is way bigger",
            "the listing says 'cosy', that means tiny right",
        ],
        assistant=[
            "Have your documents ready at the viewing: proof of income, ID and a reference letter, so you can say yes on the spot.",
            "A short note about who you are and why you like the flat helps a landlord remember you among thirty people.",
            "Limits on deposits and rent in advance differ by country and city; check your local tenant rules before paying anything.",
            "At a viewing, check the water pressure, run the taps, open the windows, look at the fuse box and ask what the heating costs.",
            "A flat above a restaurant can mean cooking smells, late noise and pests; visit once in the evening before you decide.",
            "A common guideline is to keep rent around a third of your take-home pay, so 40 percent will feel tight.",
            "A bedroom with only a skylight can be fine for sleeping but may not count as a legal bedroom in some places.",
            "A reference from your current landlord saying you paid on time and left no trouble carries a lot of weight.",
            "A damp smell in shared areas can point to a building-wide problem; ask the agent when the roof and gutters were last checked.",
            "For a small flat a rented van and two friends is much cheaper; a removal company is worth it for heavy furniture and stairs.",
            "Take dated photos of every room, wall and appliance when you move in and email them to the agent so the deposit is protected.",
            "Split rent by room size or by a points system the flatmates agree on, and write it down so nobody resents it later.",
            "In listings, 'cosy' usually means small, 'vibrant area' means noisy and 'characterful' means old.",
            "Ask the current tenants why they're leaving, if you get the chance; they often tell you what the agent won't.",
            "Check the mobile signal and internet options in the flat before signing.",
            "Read the whole tenancy agreement before signing, especially the parts about notice, repairs and the deposit.",
            "Set up a search alert on two or three sites so you see new listings within minutes.",
            "Budget for moving costs, the deposit and the first month together; they add up to more than people expect.",
        ],
    ),
    "dressmaking": Topic(
        user=[
            "bought a second hand sewing machine and the thread keeps bunching underneath into a birds nest",
            "which needle do i use for stretchy fabric, the one i have just skips stitches",
            "the pattern says size 14 but my measurements are three different sizes",
            "{name} wants me to take in her bridesmaid dress, is that too ambitious for me",
            "do i really have to prewash the fabric, i'm impatient",
            "my seams are wavy instead of straight",
            "what's a toile and do i have to make one",
            "how do i sew a zip without it looking homemade",
            "linen or cotton for a summer dress",
            "the bobbin thread keeps showing on the top side",
            "how do i finish seams without an overlocker",
            "is it worth buying a pattern or can i trace from clothes i have",
            "my machine makes a clunking noise every few stitches",
        ],
        assistant=[
            "Thread bunching underneath almost always comes from the top threading; re-thread with the presser foot up so the thread sits in the tension discs.",
            "Use a ballpoint or stretch needle for knits; a universal needle pierces the fibres and skips stitches.",
            "Pick the pattern size by your bust for tops and by your hips for skirts, then grade between sizes at the waist.",
            "Taking in a dress at the side seams is a reasonable early project; avoid anything involving beading or a lined bodice at first.",
            "Prewash fabric the way you will wash the finished garment, or the first wash may shrink it a size.",
            "Wavy seams come from pulling the fabric through; let the feed dogs move it and just guide it with your hands.",
            "A toile is a test version in cheap fabric; it lets you fix the fit before you cut into the good stuff.",
            "An invisible zip foot and basting the zip in by hand first make zips look bought rather than made.",
            "Linen is cooler and gets softer with every wash; cotton lawn is easier to sew for a beginner.",
            "If the bobbin thread shows on top, the top tension is too tight; loosen it a number at a time on scrap fabric.",
            "A zigzag stitch along the raw edge, or French seams on light fabrics, finish seams neatly without an overlocker.",
            "Tracing from a garment that fits you is a good way to start, though a bought pattern teaches you how pieces go together.",
            "A clunk every few stitches can be a bent needle or lint in the bobbin case; change the needle and brush out the dust first.",
            "Press every seam as you go; ironing is half of what makes home sewing look professional.",
            "Cut on a large clear table with weights instead of pins so the fabric stays flat.",
            "Keep a scrap of each fabric to test stitch length and tension before sewing the real seam.",
            "Oil the machine and clean out the lint every few projects; older machines run much smoother for it.",
            "Sewing a simple tote bag or pyjama trousers first teaches straight seams, corners and hems without fitting worries.",
        ],
    ),
    "rust_cli": Topic(
        user=[
            "learning rust by writing a little cli that cleans up my bookmark exports, the compiler hates me",
            "clap or just parse std::env::args myself, its like 3 flags",
            "how do i return an error from main without unwrap everywhere",
            "String vs &str, i keep guessing and adding .to_string() until it compiles",
            "{name} says i should use anyhow for errors, whats the difference with thiserror",
            "cargo build takes ages on my old laptop, any tricks",
            "how do i read a big json file without loading the whole thing",
            "the binary is 9MB for a tiny tool, can i shrink it",
            "how do i write tests for something that reads files",
            "whats the rust way to walk a directory recursively",
            "clippy gave me 40 warnings, do i have to fix all of them",
            "how do i ship this to my friend who uses windows",
            "lifetimes. just. lifetimes. explain like i'm tired",
        ],
        assistant=[
            "For three flags, clap with the derive feature is still worth it: you get help text and error messages for free.",
            "Let main return Result<(), Box<dyn Error>> and use the question mark operator; errors are then printed instead of panicking.",
            "Take &str in function arguments and return String when the function builds new text; that rule covers most cases.",
            "anyhow is for applications that just need to report errors; thiserror is for libraries that define their own error types.",
            "Use cargo check while you edit, which skips code generation, and only build when you want to run the tool.",
            "serde_json's streaming deserializer reads items one at a time from a reader instead of the whole file at once.",
            "Building in release mode with strip = true and opt-level = 'z' in the profile shrinks a small binary a lot.",
            "Write functions that take a reader or a path and test them against files in a temporary directory created by the test.",
            "The walkdir crate walks a directory tree recursively and handles symlinks and errors for you.",
            "Clippy's warnings are suggestions; fix the ones you understand and allow the rest with a reason in a comment.",
            "Cross-compiling for Windows works with the right target installed, but building on a CI runner for each platform is less hassle.",
            "A lifetime just names how long a borrowed value must stay alive; most of the time the compiler infers it and you never write one.",
            "Cloning a small value to get past the borrow checker is fine while you learn; optimise later if it ever matters.",
            "Keep the logic in lib.rs and the argument handling in main.rs, so the logic is easy to test.",
            "cargo fmt and cargo clippy in a pre-commit hook keep the code tidy without thinking about it.",
            "The Rust book's chapter on ownership is worth reading twice; everything else builds on it.",
            "Use PathBuf for paths rather than strings so the tool works on every operating system.",
            "Printing progress to stderr and results to stdout lets people pipe your tool's output into other commands.",
        ],
    ),
    "teenager": Topic(
        user=[
            "my 15 year old grunts at me and disappears into his room the second he's home",
            "how much screen time is normal for a teenager, he's on his phone till 1am",
            "he wants to go to a festival with friends, no adults, am i mad to say no",
            "{name}'s kid got caught vaping at school, how do i bring it up with mine without it being a lecture",
            "his room smells like a badger died in there",
            "should i make him get a saturday job",
            "his grades dropped this term and he says school is pointless",
            "how do i talk to him about porn and stuff without both of us dying of embarrassment",
            "he asked for a lock on his bedroom door",
            "the school wants a meeting about his attendance, i had no idea",
            "he's into some youtuber who says awful things about women",
            "is pocket money still a thing or do i just pay for stuff",
            "he only talks to me in the car, weirdly",
        ],
        assistant=[
            "Withdrawing into their room is a normal part of adolescence; regular low-pressure time together matters more than long talks.",
            "Rather than a number of hours, agree on phone-free times and places, such as meals and the hour before sleep, with the phone charging outside the bedroom.",
            "Saying yes with conditions, such as a check-in text each evening and a plan for getting home, is often safer than a no he works around.",
            "Ask what he's seen at school rather than what he's done; talking about other people's choices feels less like an accusation.",
            "Agree on a weekly minimum, laundry in the basket and plates out of the room, and leave the rest of the room as his.",
            "A part-time job teaches money and time, but it shouldn't cost school or sleep; a few hours at the weekend is plenty.",
            "A drop in grades can be boredom, friends, sleep or something heavier; ask the school what they see before assuming.",
            "Short, matter-of-fact comments during ordinary moments work better than one big talk, and say he can ask you anything later.",
            "Wanting privacy is normal at his age; a knock-first rule gives him that without a lock.",
            "Go to the attendance meeting with questions rather than a defence; the school may know things that help you understand.",
            "Ask him what he likes about the video and listen first; challenge the ideas together instead of banning the person.",
            "A fixed monthly allowance for clothes and going out teaches budgeting better than paying for things one by one.",
            "Side-by-side time, in the car or cooking, is often when teenagers talk, because there's no eye contact to get through.",
            "Keep the rules few and clear, and explain the reason for each one; teenagers push hardest on rules that seem arbitrary.",
            "Teenagers need eight to ten hours of sleep, and their body clock really does shift later at this age.",
            "Praise effort he can control, like revising, more than results; it keeps motivation up after a bad mark.",
            "Let him make small mistakes with money and time while the stakes are low.",
            "If his mood stays low for weeks or he stops seeing friends, talk to the GP or the school counsellor.",
        ],
    ),
    "wild_swimming": Topic(
        user=[
            "joined a group that swims in the lake all year, even in winter. am i insane",
            "how long can you stay in water that's 8 degrees",
            "my hands go numb so fast i can't do up my coat afterwards",
            "do i need a wetsuit or is that cheating",
            "{name} swims without a tow float, is that dumb",
            "what's the deal with the after-drop, people keep mentioning it",
            "is it safe to swim in the river after it rains",
            "what do i bring, i showed up with just a towel last time and nearly died",
            "i gasp and can't breathe for the first minute",
            "is it ok to swim alone if i stay near the edge",
            "are neoprene gloves and socks worth it",
            "how do i get warm fast after, i shiver for like an hour",
            "someone said cold water is good for anxiety, real or hype",
        ],
        assistant=[
            "Cold water swimming is safer in a group; let your body adapt slowly from autumn rather than starting in midwinter.",
            "A rough guide in cold water is about one minute per degree at first, so a few minutes at eight degrees, less if you are new.",
            "Lay your clothes out in the order you'll put them on, with a loose coat that zips easily, before you go in.",
            "A wetsuit is not cheating; many people swim in one through winter and still feel the cold on their face and hands.",
            "A bright tow float makes you visible to boats and other swimmers, and gives you something to hold if you get tired.",
            "After-drop is when you keep cooling down after getting out, as cold blood from the skin returns to the core; warm up gradually.",
            "After heavy rain rivers can carry sewage overflow and run faster; wait two or three days and check local water quality reports.",
            "Bring a warm hat, a changing robe, layers, a hot drink in a flask and something sweet to eat.",
            "The gasp is the cold shock response; get in slowly, breathe out long and hard, and wait for your breathing to settle before swimming.",
            "Never swim alone in cold water; cold affects your strength and judgement faster than you notice.",
            "Neoprene gloves and socks let most people stay in a few minutes longer and make getting dressed much easier.",
            "Dress quickly, hat first, drink something warm and walk around; avoid a hot shower straight away.",
            "Some studies and many swimmers report a lift in mood from cold water, but it is not a replacement for treatment.",
            "Check the water temperature and the weather before every swim, and agree a time limit with your group.",
            "Enter feet first in open water you don't know; depth and hidden objects are hard to judge.",
            "Blue lips and clumsy fingers are signs to get out now, not after one more lap.",
            "In summer, lakes can have blue-green algae blooms; avoid water that looks like pea soup.",
            "Swimming with your head up keeps your face out of the coldest water while you adapt.",
        ],
    ),
    "board_game_design": Topic(
        user=[
            "designing a board game in my evenings, its about lighthouses and shipwrecks, dont laugh",
            "how do i stop one strategy being obviously the best",
            "playtesters keep asking 'is it my turn' every 30 seconds",
            "should i print prototypes or just use paper and coins",
            "{name} said the rules read like a tax form, how do i write rules people can follow",
            "the game takes 3 hours and it should take 45 minutes",
            "how do i find playtesters who aren't my friends being nice",
            "is kickstarter still a thing for small games",
            "the last player always catches up and wins, is that fun or annoying",
            "do i need to trademark the name",
            "how many cards is too many in the deck",
            "my partner refuses to playtest it ever again lol",
            "how do i balance a game with 2 players and with 5",
        ],
        assistant=[
            "If one strategy dominates, make it cost more or give the others a bonus it can't get; small changes to one number often fix it.",
            "Simultaneous actions or something to plan during other turns keeps players engaged when it's not their go.",
            "Use paper, sleeves and coins until the rules stop changing; printing art before that wastes money.",
            "Write rules in the order people play: setup, a turn, the end of the game; put examples beside every tricky rule.",
            "To shorten a game, cut a round, remove a resource or make each turn do more; then time a full play again.",
            "Board game cafés and design meetups have playtest nights where strangers give honest feedback.",
            "Crowdfunding still works for small games, but it needs an audience built months before the campaign starts.",
            "A catch-up mechanic that's too strong makes early play pointless; try a gentler one, like turn order going to the last player.",
            "Game mechanics can't be protected, but a name can; check that no published game uses yours before you print anything.",
            "The right deck size depends on how often players cycle through it; count how many cards a typical game uses.",
            "Keep playtests short for the people closest to you, and thank them with something other than another playtest.",
            "Test each player count separately; many games need a small rule change for two players.",
            "Watch players without explaining anything while they read your rules; where they stop is where the rules fail.",
            "Ask playtesters what they would change rather than whether they liked it; the answers are more useful.",
            "A first player aid card, summarising a turn on one side, cuts down rules questions a lot.",
            "Record the scores and length of every playtest in a spreadsheet; patterns show up after ten games.",
            "Theme helps people remember rules; a rule that makes sense in the story is easier to learn.",
            "Print-and-play files let people far away test your game at home.",
        ],
    ),
    "balcony_solar": Topic(
        user=[
            "thinking of putting solar panels on our balcony railing, is that actually worth it in a flat",
            "do i need to tell the landlord or just plug it in",
            "our balcony faces west, is that useless",
            "how much will it actually save a year, be honest",
            "{name} says the panels will fly off in a storm, how do i mount them safely",
            "can i plug it into a normal socket or do i need a special one",
            "the inverter gets pretty hot in the sun",
            "is a battery worth it for a balcony setup",
            "how do i see how much it's producing",
            "the neighbour above shades the panel after 3pm",
            "do they work on cloudy days at all",
            "how do i clean them, there's pigeon mess everywhere",
            "our fridge runs all day, will the panels cover that",
        ],
        assistant=[
            "A small plug-in balcony system often pays for itself in five to eight years, faster if you use the power during the day.",
            "Rules differ by country, but in many places you must register the system and tell the landlord, even if it plugs into a socket.",
            "A west-facing balcony still catches the afternoon and evening sun, which matches when many people are home.",
            "Savings depend on how much of the power you use yourself; a typical small set-up covers the background load of a flat.",
            "Mount panels with brackets made for railings, bolted rather than tied, and check the railing itself is solid.",
            "Many countries allow a normal socket for small systems, though some ask for a special plug or an electrician's check.",
            "Inverters get warm in use; keep them in the shade with space around them for air to move.",
            "A battery rarely pays off for a small balcony system; using appliances while the sun is out saves more for less money.",
            "Most micro-inverters come with an app, or a smart plug that measures power shows what the panels deliver.",
            "Shading even part of a panel cuts its output a lot, so mount it where it stays in sun the longest.",
            "On cloudy days panels still produce something, often a fifth to a third of what they give in full sun.",
            "Rinse panels with plain water and a soft brush; avoid harsh cleaners and never use a pressure washer.",
            "A fridge's steady draw is exactly the kind of load a balcony panel covers well during daylight.",
            "Tilt the panels a little towards the sky if the brackets allow; a flat vertical panel loses some output in summer.",
            "Keep the receipt and the inverter's certificate; some utilities and insurers ask for them.",
            "Run the dishwasher and washing machine at midday to use more of your own power.",
            "A simple bird guard around the edges keeps pigeons from nesting behind panels.",
            "Check whether your building insurance needs to know about the panels.",
        ],
    ),
    "choir": Topic(
        user=[
            "joined a community choir and everyone else seems to have sung since birth",
            "i run out of breath halfway through long phrases",
            "how do i find my note when the altos next to me are all over the place",
            "my voice gets scratchy after a 2 hour rehearsal",
            "{name} says i'm singing from my throat, what does that even mean",
            "the director wants us off book by {month}, how do i memorise all of it",
            "is it ok to sing when i have a cold",
            "we're doing a piece in latin and i can't say half the words",
            "how loud should i be, i'm scared of sticking out",
            "should i take a few private singing lessons",
            "i get nervous and my voice wobbles on solos",
            "what do i drink before a concert, someone said no milk",
            "how do i practise at home without annoying the neighbours",
        ],
        assistant=[
            "Most community choirs are full of people who started as adults; reading and confidence come with a few terms of rehearsals.",
            "Take a low, quick breath into the belly before a long phrase and plan where you will breathe, marking it in pencil on the score.",
            "Listen for the section leader or the piano's line, and sing slightly quieter so you can hear the parts around you.",
            "A scratchy voice after rehearsal usually means pushing volume from the throat; sip water and rest your voice the next morning.",
            "Singing from the throat means squeezing the sound out; relaxing the jaw and supporting from the breath takes the strain off.",
            "Memorise a piece in short sections from the end backwards, so the ending you know best is where you finish.",
            "With a mild cold you can mark the notes quietly at rehearsal; skip singing if your throat hurts or you have lost your voice.",
            "Church Latin is mostly pronounced as written, with 'c' before e or i said like 'ch'; a recording of another choir helps.",
            "Blend rather than hide: sing at the volume where you hear your neighbours and yourself at once.",
            "A few private lessons can fix breathing and posture problems that are hard to spot in a big group.",
            "A wobble under nerves comes from shallow breath; a slow breath out before you start steadies the voice.",
            "Milk and very cold drinks bother some singers; room-temperature water is the safe choice before singing.",
            "Humming and lip trills at a low volume let you practise at home without disturbing anyone.",
            "Record rehearsal on your phone and sing along to your part at home during the week.",
            "Standing with your weight on both feet and knees unlocked helps your breathing more than people expect.",
            "Warm up gently for ten minutes before singing, even on your own.",
            "Mark the score with a pencil as the director gives notes, so you remember them next week.",
            "Learning to read basic rhythm makes new pieces far quicker to pick up.",
        ],
    ),
    "thesis": Topic(
        user=[
            "masters thesis due in a few months and i have 4000 words of a 20000 word thing",
            "my supervisor takes 3 weeks to answer every email",
            "how do i write a literature review that isn't just a list of summaries",
            "i have 200 pdfs and no idea what's in any of them",
            "{name} writes 1000 words a day, how is that humanly possible",
            "should i write the intro first or last",
            "my results don't show what i expected, is the whole thesis ruined",
            "zotero or mendeley, or just a folder",
            "i keep rewriting the first paragraph over and over",
            "how many references is normal for a masters",
            "my stats are a mess, what test do i even use for this",
            "latex or word, my supervisor uses word",
            "i feel like everyone in my cohort is further along",
        ],
        assistant=[
            "Aim for a small fixed amount every working day, even 300 words; a 20,000-word thesis is mostly steady, unglamorous progress.",
            "Send your supervisor short, specific questions with a deadline you need the answer by; long open emails wait the longest.",
            "Organise the review around themes or debates rather than authors, and say where the sources agree, disagree and what's missing.",
            "Skim each paper's abstract and conclusion and write two lines in your reference manager about why it matters to you.",
            "People who write a lot each day usually write badly at first and edit later; the first draft is allowed to be rough.",
            "Write the introduction last, once you know what the thesis actually argues; a rough version at the start is fine.",
            "Unexpected results are still results; explain why they may differ from what you expected and what that means.",
            "Any reference manager is better than a folder; Zotero is free and works with both Word and LaTeX.",
            "Leave the first paragraph rough and move on; it is easier to fix once the rest of the chapter exists.",
            "Reference counts vary a lot by field, so look at two or three recent theses from your department.",
            "The right test depends on your data type and design; write down your variables and ask a statistics adviser if your university has one.",
            "Use what your supervisor can comment on easily; Word with track changes saves a lot of back and forth.",
            "Everyone feels behind; compare yourself to your own plan, not to what your cohort says in the kitchen.",
            "Make a chapter plan with a target word count for each section; a blank chapter is far harder to start than a list of headings.",
            "Back up the thesis in two places, including one outside your laptop, every day.",
            "Read your draft out loud; clumsy sentences are much easier to hear than to see.",
            "Book writing time in your calendar like a meeting and protect it.",
            "Ask a friend outside your field to read the abstract; if they understand it, it's clear enough.",
        ],
    ),
    "senior_cat": Topic(
        user=[
            "our cat is 17 and suddenly drinking loads of water, should i be worried",
            "he's stopped jumping onto the bed, does he need steps",
            "the vet wants to do bloods, is it cruel to put an old cat through that",
            "{name} says old cats should eat senior food, is that just marketing",
            "he yowls at 4am every night now, like he's lost",
            "he's losing weight even though he eats",
            "how do i give a cat a pill without losing a finger",
            "his fur looks scruffy and matted on his back",
            "should we get a kitten to keep him company or is that a terrible idea",
            "he's peeing next to the litter tray instead of in it",
            "how do you know when it's time, i'm not ready for that conversation",
            "his breath is awful",
            "can i give him something for his stiff hips",
        ],
        assistant=[
            "Drinking much more than usual in an older cat can point to kidney disease, diabetes or an overactive thyroid; a vet check is worth it.",
            "Steps or a low stool beside the bed let an arthritic cat keep his favourite spots.",
            "Blood tests in an older cat are quick and often find treatable problems early; most cats cope well with a gentle handler.",
            "Senior diets are usually easier to digest and lower in phosphorus, which helps ageing kidneys, but ask your vet what suits him.",
            "Night-time yowling in old cats can come from hearing loss, confusion or high blood pressure, so mention it to the vet.",
            "Weight loss while eating normally is a common sign of an overactive thyroid in older cats.",
            "Hide a pill in a soft treat or a pill pocket, or ask the vet whether the medicine comes as a liquid or a paste.",
            "Old cats often stop grooming their back because it hurts to twist; gentle brushing helps him and shows you any lumps.",
            "A kitten often stresses an old cat more than it comforts him; a quiet routine usually suits a senior cat better.",
            "Peeing beside the tray can mean the sides are too high for sore joints; try a tray with a low entry.",
            "Quality of life scales, scoring eating, moving, grooming and enjoyment, help you talk about it with the vet when the time comes.",
            "Bad breath in an old cat often means dental disease, which can hurt even if he still eats.",
            "Never give a cat painkillers meant for people; ask the vet about arthritis medicine made for cats.",
            "Keep water bowls in several places around the house so he drinks more without walking far.",
            "A heated bed or a fleece in a sunny spot eases stiff joints in winter.",
            "Weigh him once a month on the kitchen scales in a basket; small changes are easy to miss by eye.",
            "Older cats like their routines; feed him at the same times and keep his things where they've always been.",
            "Nail trims matter more in old cats, whose claws grow thick and can curl into the pads.",
        ],
    ),
}


USER_ASIDES = [
    "lol ok fair",
    "hmm ok",
    "oh interesting, didnt know that",
    "sorry typing on my phone on the bus",
    "wait that's actually really useful",
    "can u give me the short version pls",
    "brb the oven timer",
    "nah that wont work for us",
    "{name} is going to laugh at me for asking this",
    "noted, thanks",
    "too much info but i'll save it",
    "going to try that on {day}, will let u know",
    "anyway different thing",
    "probably a stupid question but",
]
ASSISTANT_ASIDES = [
    "Glad to go through it.",
    "That's a very reasonable thing to ask.",
    "Let's take it step by step.",
    "Short version first.",
    "There's more than one way to do this.",
    "It depends a bit on the details.",
    "Makes sense.",
    "Here it is in brief.",
    "Good call to check first.",
    "Simplest is usually best here.",
]
FOLLOW_UPS = [
    "wait, '{}'?? since when",
    "'{}', does that apply where i live too",
    "ok so '{}', how long before i see a difference",
    "can u explain '{}' once more, i got lost",
    "you said '{}', is there a cheap way to do that",
    "'{}'... my sister told me the exact opposite lol",
    "'{}' - what would that look like in real life",
    "back to '{}': is that really necessary",
    "and if '{}' doesn't work, then what",
]
RELATIONS = [
    "The woman who runs the bakery on our corner,",
    "My stepbrother in Canada",
    "Our plumber",
    "My old lab partner from uni",
    "My boss's boss",
    "My partner's second cousin",
    "Our babysitter",
    "My oldest friend",
    "My partner's godmother",
    "A guy from my choir,",
    "My nan",
    "The family in the flat below us",
]
EVENTS = [
    "is swimming the length of a lake near {city} for charity",
    "got into a glassblowing course in {city}",
    "left banking to become a tree surgeon",
    "is expecting triplets in {month}",
    "moved onto a narrowboat",
    "broke her ankle at a roller disco",
    "got engaged on top of a lighthouse",
    "opened a tiny record shop",
    "passed his motorbike test on the fifth try",
    "is learning the bagpipes",
    "started a ukulele orchestra",
    "adopted two retired greyhounds",
    "is walking a pilgrim route in {month}",
    "won the village bake-off on {day} with a lemon tart",
    "got stuck in a lift in {city} for three hours",
    "sold her house in {city} and moved to a farm",
    "is running for the local council at 70",
    "got lost in a corn maze for an hour",
    "is retraining as a paramedic",
    "finally got his pilot's licence",
]


STORIES: list[Story] = [
    # ---- a fact the person stated once, in passing (single session)
    Story(
        "starter-name",
        "lc_user",
        "what's my sourdough starter called?",
        [
            [
                "*u:the starter officially has a name, Doughlores, my niece picked it and apparently i'm not allowed to change it"
            ]
        ],
        [
            "A sourdough starter can live for decades if someone keeps feeding it.",
            "Bakeries sometimes sell a spoonful of their starter to customers.",
        ],
    ),
    Story(
        "marathon-entry",
        "lc_user",
        "which marathon did I sign up for back in the spring?",
        [["*u:ok i did it, i'm entered for the Ridgeway marathon on the 12th of april next year, no backing out now"]],
        [
            "Signing up for a marathon with a friend makes it harder to drop out.",
            "Big city marathons often fill their places by ballot within hours.",
        ],
    ),
    Story(
        "bees-from",
        "lc_user",
        "where did my bees come from?",
        [
            [
                "*u:the colony came from a retired beekeeper called Tobias two villages over, he threw in his old smoker and wouldn't take money for it"
            ]
        ],
        [
            "Bees bought from abroad can bring diseases that local bees have never met.",
            "A swarm caught in a garden is the cheapest way to start with bees.",
        ],
    ),
    Story(
        "chess-rating",
        "lc_user",
        "What is my chess rating?",
        [
            [
                "*u:got my first official rating through, 1412, which the captain says is 'respectable for an adult beginner'"
            ]
        ],
        [
            "Chess ratings go up and down more for new players than for established ones.",
            "Online ratings and club ratings are calculated on different scales.",
        ],
    ),
    Story(
        "flat-street",
        "lc_user",
        "which street was the flat we both loved on?",
        [
            [
                "*u:the one we both fell for is on Weaver Lane, top floor, slanted ceilings, 1150 a month which is a stretch"
            ]
        ],
        [
            "Flats on a quiet street usually rent for a little more.",
            "A flat you love at the viewing can feel different after a week of living there.",
        ],
    ),
    Story(
        "dress-fabric",
        "lc_user",
        "what fabric did I get for the wrap dress?",
        [
            [
                "*u:picked up 3 metres of rust coloured linen at the saturday market for the wrap dress, 12 a metre, bargain"
            ]
        ],
        [
            "A wrap dress is forgiving to fit because the ties adjust the waist.",
            "Fabric shops often sell the end of a roll at a discount.",
        ],
    ),
    Story(
        "cli-name",
        "lc_user",
        "what did I call my rust command line tool?",
        [["*u:the cli is called tidytab now, it sorts my exported bookmarks into folders by domain"]],
        [
            "Command line tools with short names are easier to type every day.",
            "Rust tools are often published on the crate registry under a different name from the binary.",
        ],
    ),
    Story(
        "sixth-form",
        "lc_user",
        "Where is my son going for sixth form?",
        [
            [
                "*u:Milo got into Westbrook college for sixth form, the one with the engineering workshop, he's pretending not to be pleased about it"
            ]
        ],
        [
            "Sixth form open evenings are usually in the autumn.",
            "Some teenagers choose a sixth form because their friends are going there.",
        ],
    ),
    Story(
        "swim-spot",
        "lc_user",
        "where does the group swim on sunday mornings?",
        [
            [
                "*u:our sunday spot is the old flooded quarry at Hollins, the water was 11 degrees this morning and i lasted six minutes"
            ]
        ],
        [
            "Swimming on sunday mornings is quieter than in the afternoon.",
            "Some groups swim at a different spot each week to keep it interesting.",
        ],
    ),
    Story(
        "game-title",
        "lc_user",
        "What's my board game called?",
        [
            [
                "*u:the game finally has a title: Lanternfall. you build lighthouses and wreck each other's ships on the rocks"
            ]
        ],
        [
            "Board games with a short title are easier to remember on a shop shelf.",
            "Some designers change their game's name right before it is published.",
        ],
    ),
    Story(
        "panel-watts",
        "lc_user",
        "how powerful are the solar panels I put up?",
        [
            [
                "*u:the two balcony panels are 400 watts each, so 800 total, which is the most the rules here let you plug in"
            ]
        ],
        [
            "Solar panels lose a little of their power every year as they age.",
            "A panel's power rating is measured in lab conditions, not on a real balcony.",
        ],
    ),
    Story(
        "concert-date",
        "lc_user",
        "When is the choir concert?",
        [["*u:concert is on the 14th of december at St Aldric's, we're doing the Fauré requiem and i'm terrified"]],
        [
            "Choir concerts before christmas often sell out.",
            "Many choirs hold a dress rehearsal in the concert venue the night before.",
        ],
    ),
    Story(
        "supervisor",
        "lc_user",
        "who is supervising my thesis?",
        [["*u:my supervisor is Dr Okonkwo, she answers emails at 2am and weirdly that makes me feel better"]],
        [
            "Supervisors often have a dozen students at the same time.",
            "Changing supervisor halfway through a thesis is possible but rare.",
        ],
    ),
    Story(
        "cat-age",
        "lc_user",
        "how old is our cat?",
        [["*u:Biscuit turned 17 in august, the vet called him a geriatric gentleman and he looked offended"]],
        [
            "Cats are counted as senior from about eleven years old.",
            "Indoor cats usually live longer than cats that roam outside.",
        ],
    ),
    Story(
        "new-vet",
        "lc_user",
        "which vet did we move the cat to the other day?",
        [["*u:we switched Biscuit to the cat-only clinic on Harrow Road, the waiting room has no dogs barking at him"]],
        [
            "Moving a pet to another vet means asking for the old records to be sent over.",
            "Some vets offer a cheaper plan that covers check-ups for a year.",
        ],
    ),
    Story(
        "birthday-loaf",
        "lc_user",
        "what did I bake for my mum's birthday last week?",
        [
            [
                "*u:made a dark rye and caraway loaf for mum's birthday, she said it tasted like her childhood in Poland and cried a bit"
            ]
        ],
        [
            "Baking for someone's birthday is more personal than buying a cake.",
            "My mum always says shop bread has no taste.",
        ],
    ),
    # ---- something the assistant said (single session)
    Story(
        "starter-revive",
        "lc_assistant",
        "how did you tell me to bring my starter back to life?",
        [
            [
                "u:my starter smells like nail polish remover and hasnt risen in 3 days, is it dead",
                "*a:Keep only a tablespoon, feed it 50 grams of flour and 50 grams of water twice a day at room temperature, and use half rye flour for the first three days; the acetone smell means it is starving, not dead.",
            ]
        ],
        [
            "A starter that has been in the fridge for a month needs a few feeds before it bakes well.",
            "Some people dry a little starter on baking paper as a backup.",
        ],
    ),
    Story(
        "taper",
        "lc_assistant",
        "what did you suggest for the last three weeks before race day?",
        [
            [
                "u:the race is in three weeks, do i just keep running the same amount or what",
                "*a:Cut your weekly distance to about 75 percent three weeks out, 50 percent two weeks out and a third in race week, and keep one short run at marathon pace each week so your legs remember it.",
            ]
        ],
        [
            "Race day nerves make most runners start too fast.",
            "The weeks before a race are a bad time to try new shoes.",
        ],
    ),
    Story(
        "swarm-plan",
        "lc_assistant",
        "what did you say to do when I found queen cells?",
        [
            [
                "u:found like five queen cells along the bottom of two frames, are they about to leave",
                "*a:Do an artificial swarm today: move the old queen with one frame of brood into a new box on the old spot, put the original box a metre away with one good queen cell left, and remove the other cells.",
            ]
        ],
        [
            "Queen cells that hang from the bottom of a frame look like peanuts.",
            "A queen that is more than two years old lays fewer eggs.",
        ],
    ),
    Story(
        "black-defence",
        "lc_assistant",
        "which defence did you recommend I play with the black pieces?",
        [
            [
                "u:i get destroyed every time someone opens e4 against me, i need something solid i can learn quickly",
                "*a:Try the Caro-Kann: answer e4 with c6 and then d5, develop your light-squared bishop to f5 before playing e6, and you get a sound position without memorising long lines.",
            ]
        ],
        [
            "Playing with the black pieces is harder because white moves first.",
            "Some club players only ever use one defence their whole life.",
        ],
    ),
    Story(
        "borrow-fix",
        "lc_assistant",
        "how did you say I should fix the borrow error in tidytab?",
        [
            [
                "u:rust says 'cannot borrow `entries` as mutable because it is also borrowed as immutable' inside my loop over entries",
                "*a:Collect the indices of the entries you want to change into a Vec in a first loop, then change them in a second loop over those indices; or, if you are removing entries, use entries.retain() with the test as a closure.",
            ]
        ],
        [
            "The borrow checker is the part of Rust that newcomers find hardest.",
            "Error messages in Rust usually suggest a fix underneath.",
        ],
    ),
    Story(
        "grades-talk",
        "lc_assistant",
        "What did you suggest about bringing up Milo's marks with him?",
        [
            [
                "u:his report came and it's bad, maths especially, how do i bring it up without a huge fight",
                "*a:Bring it up while you are doing something together, like driving, ask him which subject he thinks is going worst and why, and offer one concrete thing, such as paying for a few sessions with a tutor he chooses.",
            ]
        ],
        [
            "Teenagers often do worse in the term when they change friendship groups.",
            "Some schools send reports home only twice a year now.",
        ],
    ),
    Story(
        "cold-entry",
        "lc_assistant",
        "what did you tell me last month about getting into cold water?",
        [
            [
                "u:i can't get past my waist, the cold is just too much and i end up getting out again",
                "*a:Walk in steadily without stopping, splash your face and the back of your neck, then lower your shoulders under while breathing out slowly through pursed lips for a count of ten before you start swimming.",
            ]
        ],
        [
            "Cold water feels colder in a breeze than on a still day.",
            "The lake is usually coldest in late february.",
        ],
    ),
    Story(
        "playtest-size",
        "lc_assistant",
        "what did you say a couple of weeks ago about running my next playtest?",
        [
            [
                "u:next playtest is with people from the games café, how do i make it actually useful",
                "*a:Hand them the rulebook and say nothing for the first twenty minutes, time every round, and end with three questions only: what was the most boring moment, what would you cut, and would you play again.",
            ]
        ],
        [
            "Playtests with strangers are more honest than playtests with friends.",
            "Some designers pay playtesters in pizza.",
        ],
    ),
    Story(
        "discussion-chapter",
        "lc_assistant",
        "How did you tell me to structure the discussion chapter?",
        [
            [
                "u:i have no idea how to start the discussion chapter, i just keep repeating my results",
                "*a:Open with your main finding in one paragraph, then compare each result with the two or three studies closest to it, then give the limitations, and end with what a follow-up study should test.",
            ]
        ],
        [
            "A discussion chapter is where most theses lose marks.",
            "Some departments let you merge the results and discussion chapters.",
        ],
    ),
    # ---- a preference the person stated (single session); most questions are requests it answers
    Story(
        "savoury-only",
        "lc_preference",
        "what should I bake this weekend?",
        [
            [
                "*u:fyi i don't do sweet stuff at all, i only want savoury bakes, cheese, olives, seeds, that kind of thing"
            ]
        ],
        [
            "Baking at the weekend is easier when the dough was started on friday night.",
            "Most people bake more in the winter than in the summer.",
        ],
    ),
    Story(
        "trail-only",
        "lc_preference",
        "can you suggest a route for my saturday long run?",
        [["*u:i only run off road, trails and mud and hills, tarmac bores me to tears and wrecks my knees"]],
        [
            "A long run on saturday leaves sunday free to recover.",
            "Running the same route every week makes it easy to compare times.",
        ],
    ),
    Story(
        "vegan-potluck",
        "lc_preference",
        "What could I bring to the choir potluck?",
        [["*u:went vegan in january, so anything i cook or bring anywhere has to be fully vegan, no honey either"]],
        [
            "A potluck works best when someone keeps a list of who brings what.",
            "Choirs often hold a potluck after the last rehearsal of the season.",
        ],
    ),
    Story(
        "no-dice",
        "lc_preference",
        "which game should we get out at the next games night?",
        [
            [
                "*u:i can't stand dice games, luck decides everything and it makes me furious, give me pure strategy any day"
            ]
        ],
        [
            "Games nights go better when someone has read the rules beforehand.",
            "A short game at the start of the night helps latecomers join in.",
        ],
    ),
    Story(
        "high-floor",
        "lc_preference",
        "which of these listings should we go and see?",
        [["*u:ground floor is a hard no for me, we got burgled twice in the last place, i want third floor or higher"]],
        [
            "Listings with photos taken in summer can hide how dark a flat is in winter.",
            "Going to see a flat in the evening tells you how loud the street is.",
        ],
    ),
    Story(
        "workwear-sewing",
        "lc_preference",
        "What should I sew next?",
        [
            [
                "*u:i only want to make stuff i'll actually wear to the office, plain trousers and shirts, nothing frilly or party-ish"
            ]
        ],
        [
            "Sewing the same pattern twice is the quickest way to get better at it.",
            "Many sewists keep a list of projects they'll never get round to.",
        ],
    ),
    Story(
        "by-ear",
        "lc_preference",
        "How should I learn the new piece for choir?",
        [["*u:i can't read music, not a note, i learn everything by ear from recordings on my headphones"]],
        [
            "A new piece for choir usually takes a whole term to come together.",
            "Some choirs hand out the music a month before the first rehearsal.",
        ],
    ),
    # ---- facts spread over several sessions
    Story(
        "races-run",
        "lc_multi",
        "which races have I done so far this year?",
        [
            ["*u:did the harbour 10k this morning, 52 minutes, legs are jelly"],
            ["*u:half marathon done!! 1:58 at the Millbrook half, sprinted the last 200m like an idiot"],
            ["*u:and i ran my first trail race, 18k of mud over the downs, came in filthy and grinning"],
        ],
        [
            "Running too many races in one year leaves no time for proper training blocks.",
            "Races so far this year have been cancelled more often because of heat.",
        ],
    ),
    Story(
        "honey-harvest",
        "lc_multi",
        "What have I taken from the hives?",
        [
            ["*u:first harvest!!! 11 jars of pale spring honey, it tastes like lemons somehow"],
            ["*u:melted down the cappings and got a little block of wax, going to make lip balm with it"],
        ],
        [
            "Taking from the hives too late in the year leaves the bees short for winter.",
            "Honey from the same hive tastes different from one month to the next.",
        ],
    ),
    Story(
        "club-wins",
        "lc_multi",
        "who have I beaten at the chess club?",
        [
            ["*u:beat Graham!! the guy who's been at the club since 1985, he shook my hand like i'd stolen his wallet"],
            ["*u:won against the club captain in a rook ending, he blundered but a win is a win"],
            ["*u:and i finally beat Priyanka, the junior, after losing to her four times"],
        ],
        [
            "Beating someone at the club for the first time rarely feels as good as you'd think.",
            "Club players remember who they have lost to for years.",
        ],
    ),
    Story(
        "sewn-things",
        "lc_multi",
        "what have I made with the sewing machine so far?",
        [
            ["*u:finished my first thing on the machine, a tote bag! wonky handles but it holds shopping"],
            ["*u:made pyjama trousers in a dinosaur print, the waistband is a bit tight but i love them"],
            ["*u:a whole skirt with a zip, an actual invisible zip, i'm unstoppable"],
        ],
        [
            "Things made on a sewing machine last longer than hand-stitched ones.",
            "A second hand sewing machine usually needs a service before much use.",
        ],
    ),
    Story(
        "cli-commands",
        "lc_multi",
        "Which subcommands does tidytab have so far?",
        [
            ["*u:tidytab sort works, it groups every bookmark by domain into folders"],
            ["*u:added tidytab dedupe, it found 340 duplicate bookmarks which is honestly embarrassing"],
        ],
        [
            "Command line tools with many subcommands need good help text.",
            "Most people never look at their bookmarks once they've saved them.",
        ],
    ),
    Story(
        "flats-viewed",
        "lc_multi",
        "which flats did we go and look at?",
        [
            ["*u:first viewing was a basement on Cole Street, dark and smelled of cat, hard pass"],
            ["*u:saw a two-bed above the launderette on Mill Road, fine but the bedroom's tiny"],
            ["*u:and the new-build by the canal, shiny but the walls are paper thin, we heard the neighbour sneeze"],
        ],
        [
            "Looking at flats with a checklist makes them easier to compare afterwards.",
            "Most people go and look at about ten flats before signing for one.",
        ],
    ),
    Story(
        "cat-diagnoses",
        "lc_multi",
        "What has the vet found wrong with Biscuit?",
        [
            ["*u:bloods came back, his kidney values are up a bit, stage 2 kidney disease they think"],
            ["*u:second bit of news: his thyroid is overactive too, so he's on tablets twice a day now"],
        ],
        [
            "Vets find something wrong in most cats over fifteen when they look.",
            "A cat that hides a lot may be feeling unwell.",
        ],
    ),
    Story(
        "summer-playtests",
        "lc_multi",
        "who played my game over the summer?",
        [
            ["*u:the board game society at the uni tried Lanternfall, seven of them, they loved the wrecking rule"],
            ["*u:my cousins played it at the family barbecue, my uncle got way too competitive about lighthouses"],
        ],
        [
            "Summer is a quiet time for board game clubs because people are away.",
            "People who play a lot of games give harder feedback than families do.",
        ],
    ),
    # ---- a fact that changed: both sessions are gold
    Story(
        "feeding-schedule",
        "lc_update",
        "how often am I feeding the starter these days?",
        [
            ["*u:right now the starter lives on the counter and gets fed twice a day, morning and night"],
            ["*u:moved the starter into the fridge, now it only gets fed once a week on sunday, so much less faff"],
        ],
        [
            "Starters fed with whole wheat flour get hungry faster.",
            "Feeding a starter these days is easier with a kitchen scale.",
        ],
    ),
    Story(
        "goal-time",
        "lc_update",
        "What finishing time am I aiming for in the marathon?",
        [
            ["*u:my goal is just under 4 hours, anything starting with a 3 and i'll be happy"],
            ["*u:after that half i'm going for 3:45 now, my coach thinks it's realistic if the weather's kind"],
        ],
        [
            "Most first marathons take between four and five hours.",
            "A marathon finishing time depends a lot on the weather on the day.",
        ],
    ),
    Story(
        "hive-count",
        "lc_update",
        "how many hives have I got?",
        [
            ["*u:still just the one hive for now, i'm not ready for more"],
            ["*u:split the colony, so now i have two hives side by side at the end of the garden"],
        ],
        [
            "Beekeepers with several hives can swap frames between them.",
            "Hives painted different colours help bees find their own entrance.",
        ],
    ),
    Story(
        "move-date",
        "lc_update",
        "When do we get the keys to the new flat?",
        [
            ["*u:we signed! move-in is the 1st of february, keys from the agent at 10 that morning"],
            [
                "*u:the landlord pushed it back, we now get the keys on the 15th of february, so we need somewhere for two weeks"
            ],
        ],
        [
            "Getting keys on a friday means a whole weekend to move.",
            "Some agents charge a fee for a second set of keys.",
        ],
    ),
    Story(
        "voice-part",
        "lc_update",
        "which part do I sing in the choir?",
        [
            ["*u:they put me in the altos for now, middle of the back row"],
            ["*u:the director moved me to tenor!! apparently i've got a low voice for a woman, i'm weirdly proud"],
        ],
        [
            "Some choirs split each part into a first and second line.",
            "The part people sing often changes as their voice gets older.",
        ],
    ),
    Story(
        "thesis-deadline",
        "lc_update",
        "what's my thesis deadline?",
        [
            ["*u:thesis is due on the 30th of june, it's in my calendar in red"],
            ["*u:got the extension!!! new hand-in date is the 15th of september, i can breathe again"],
        ],
        [
            "Thesis deadlines are often at the end of a semester.",
            "Printing and binding the thesis takes a few days before the deadline.",
        ],
    ),
    Story(
        "curfew",
        "lc_update",
        "What time does Milo have to be home on weekends now?",
        [
            ["*u:weekend rule is home by 10, no negotiating, he thinks i'm a prison guard"],
            ["*u:since he turned 16 we moved the weekend curfew to 11, as long as he texts when he leaves"],
        ],
        [
            "Teenagers on weekends often sleep until noon.",
            "Curfews work better when they are agreed rather than imposed.",
        ],
    ),
]


# Days ago of each gold session, for the questions that say when (what the words mean on the day asked,
# mid-november: "over the summer" is june to august, "back in the spring" march to may).
WHEN: dict[str, list[tuple[float, float]]] = {
    "marathon-entry": [(170, 255)],  # "back in the spring"
    "new-vet": [(2, 6)],  # "the other day"
    "birthday-loaf": [(4, 9)],  # "last week"
    "cold-entry": [(20, 32)],  # "last month"
    "playtest-size": [(11, 17)],  # "a couple of weeks ago"
    "summer-playtests": [(77, 165), (77, 165)],  # "over the summer"
}
