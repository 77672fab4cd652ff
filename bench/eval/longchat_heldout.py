# ruff: noqa: E501  (sentences are kept one line each, as typed)
"""The held-out long-session chat haystacks (issue 16, sixth session): new material, its own seed.

`bench/eval/longchat.py --heldout` composes haystacks from this file exactly as it does from
`longchat_world.py` (the tuning set): 40 long sessions per haystack, 15-40 turns each, the facts stated
once in passing inside sessions about other things, two lures per story in other sessions. Every topic,
sentence, slot filler, aside, follow-up and story here is new: none is in `longchat_world.py`. This file
was written and committed before it was first run and before the ranking was tuned on the tuning set
(docs/eval.md); do not edit it to move a figure, write another set.
"""

from __future__ import annotations

from bench.eval.longchat_world import Story, Topic

SEED = 6061201

SLOTS: dict[str, list[str]] = {
    "name": [
        "Astrid",
        "Bilal",
        "Camille",
        "Dario",
        "Emeka",
        "Freya",
        "Gustav",
        "Hiroko",
        "Ivo",
        "Jasmin",
        "Kasper",
        "Lucia",
        "Magnus",
        "Noor",
        "Otto",
        "Paula",
        "Rafael",
        "Sanne",
        "Teodor",
        "Ursula",
        "Viktor",
        "Wanda",
        "Yara",
        "Zeno",
        "Alba",
        "Bastian",
        "Cleo",
        "Dorian",
        "Elif",
        "Florin",
    ],
    "city": [
        "Antwerp",
        "Coimbra",
        "Dresden",
        "Galway",
        "Innsbruck",
        "Lucerne",
        "Maastricht",
        "Nuremberg",
        "Ostrava",
        "Pisa",
        "Rouen",
        "Sibiu",
        "Tartu",
        "Uppsala",
        "Verona",
        "Wroclaw",
        "Trieste",
        "Heidelberg",
        "Lille",
        "Girona",
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
    "n": [str(i) for i in range(3, 15)],
    "shade": ["rust", "ochre", "lilac", "slate", "plum", "sand", "forest green", "indigo", "peach", "ivory"],
}


TOPICS: dict[str, Topic] = {
    "photography": Topic(
        user=[
            "My photos at dusk always come out grainy. Is it the camera or me?",
            "Should I shoot in RAW or JPEG if I only post pictures online?",
            "How do I take sharp pictures of {name}'s kids when they never sit still?",
            "Is a 50mm prime lens a good first lens to buy?",
            "I want to photograph the old town of {city} at night. What settings should I start with?",
            "How do you stop a horizon from looking crooked in landscape shots?",
            "Is it worth printing photos anymore, or does everyone just keep them on their phone?",
            "What is the rule of thirds and do people actually follow it?",
            "My phone camera blows out the sky every time. How do I fix that?",
        ],
        assistant=[
            "Grain at dusk usually comes from a high ISO; a tripod lets you keep ISO low and use a longer shutter instead.",
            "RAW files keep far more detail in shadows and highlights, but for pictures that only go online a well-exposed JPEG is often enough.",
            "For moving children use a shutter speed of at least 1/500 and continuous autofocus, and take bursts rather than single frames.",
            "A 50mm prime is cheap, light and bright, and it teaches you to move your feet instead of zooming.",
            "For night streets start around f/4, ISO 1600 and 1/60 of a second, then adjust by looking at the histogram.",
            "Turn on the grid in the viewfinder and line the horizon up with one of its lines; straightening afterwards crops the picture.",
            "Printing a handful of favourites each year is the surest way to still have them in twenty years.",
            "The rule of thirds is a starting point: placing the subject off centre usually gives a picture more room to breathe.",
            "Tap on the brightest part of the scene to set exposure there, then lift the shadows afterwards.",
            "Golden hour, the first and last hour of sunlight, gives soft light that flatters almost every subject.",
            "Clean the lens of a phone with a soft cloth before shooting; a fingerprint smear softens every picture.",
            "Backing up photos to two places, one of them outside the house, protects them from a dead disk and a burglary alike.",
            "A polarising filter deepens a blue sky and removes reflections from water and glass.",
            "Shoot portraits with the light to the side of the face rather than behind you; it gives the face shape.",
        ],
    ),
    "driving": Topic(
        user=[
            "A little orange light shaped like an engine came on in my car. Can I keep driving?",
            "How often should the tyres really be rotated?",
            "I have to drive to {city} on {day}, about {n} hours. Any tips to stay alert?",
            "Is it cheaper to lease a car or to buy one second hand?",
            "My windscreen keeps fogging up on cold mornings. What am I doing wrong?",
            "How do I know when the brake pads need replacing?",
            "Should I switch to winter tyres or are all-season ones enough here?",
            "Parallel parking still scares me after years of driving. Any trick?",
            "What should I keep in the boot for a breakdown?",
        ],
        assistant=[
            "A steady engine warning light means get it checked soon; a flashing one means stop as soon as it is safe, because the engine is misfiring.",
            "Rotating tyres every ten thousand kilometres or so keeps them wearing evenly.",
            "On a long drive take a break every two hours, even if you feel fine; tiredness arrives before you notice it.",
            "Leasing costs more over the years but spares you the repairs; a well-kept used car is usually cheaper overall.",
            "Fog on the inside of the windscreen clears fastest with the air conditioning on and the recirculation off.",
            "Squealing when you brake or a longer stopping distance are the usual signs that the pads are worn.",
            "Winter tyres grip far better below seven degrees, on snow and on cold dry roads alike.",
            "For parallel parking, line your mirror up with the other car's mirror, reverse until your rear wheel passes its bumper, then turn in.",
            "A warning triangle, a high-visibility vest, jump leads and a torch cover most roadside trouble.",
            "Check the tyre pressure once a month when the tyres are cold; under-inflated tyres waste fuel and wear faster.",
            "Smooth braking and steady speeds save more fuel than any gadget you can buy.",
            "If the battery is more than five years old, have it tested before winter; cold is what finishes weak batteries.",
            "A dashcam can help settle insurance claims, but check the local rules about filming in public.",
        ],
    ),
    "health": Topic(
        user=[
            "I keep getting headaches in the afternoon. Could it be my screen?",
            "How much water should I actually drink in a day?",
            "My lower back hurts after sitting all day. What can I do at my desk?",
            "Is it normal to feel dizzy when I stand up quickly?",
            "{name} swears by cold showers. Is there anything to it?",
            "I always catch a cold in {month}. Can I do anything about it?",
            "How often should I get a general check-up at my age?",
            "What is a healthy resting heart rate?",
            "Are vitamin D supplements worth taking in winter?",
        ],
        assistant=[
            "Afternoon headaches often come from dehydration, skipped meals or eye strain; try the 20-20-20 rule for screens.",
            "Most adults do fine with about two litres of fluid a day, more when it is hot or you exercise.",
            "Stand up every half hour, and set the screen at eye height so your neck is not bent forward.",
            "Brief dizziness on standing is common and usually harmless, but mention it to a doctor if it makes you faint.",
            "Cold showers wake people up, but the evidence for health effects beyond that is thin.",
            "Sleep, washing your hands and not touching your face do more against colds than any supplement.",
            "A general check-up every couple of years is reasonable for a healthy adult under fifty.",
            "A resting heart rate between sixty and a hundred beats a minute is normal; fit people often sit lower.",
            "In northern winters many people run low on vitamin D, so a modest supplement is a common recommendation.",
            "Any pain that wakes you at night or keeps getting worse deserves a visit to a doctor rather than waiting.",
            "Stretching the hip flexors helps many people whose lower back aches after long days in a chair.",
            "Caffeine after mid-afternoon can shorten sleep even if you fall asleep easily.",
            "Keep a short diary of when headaches come; patterns are easier to see on paper than in memory.",
        ],
    ),
    "crafts": Topic(
        user=[
            "I want to learn to knit over the winter. What should my first project be?",
            "My sewing machine keeps bunching the thread underneath. Why?",
            "Which wool is soft enough for a baby blanket?",
            "{name} asked me to make a quilt for her wedding. Is that too ambitious for a beginner?",
            "How do I keep the edges of my knitting straight?",
            "Is embroidery hard to pick up?",
            "Where do people find cheap fabric that is still good quality?",
            "I keep dropping stitches and not noticing. Any tricks?",
            "Can I dye old cotton shirts a {shade} colour at home?",
        ],
        assistant=[
            "A simple garter stitch scarf is the classic first project: one stitch, no shaping, and you can wear it.",
            "Thread bunching underneath usually means the upper thread is not seated in the tension discs; rethread with the presser foot up.",
            "Merino and cotton blends are soft and washable, which matters a lot for anything a baby uses.",
            "A quilt made of large squares is a manageable first quilt; leave three months for it, not three weeks.",
            "Slip the first stitch of every row instead of knitting it and the edges come out much neater.",
            "Embroidery needs little equipment: a hoop, a needle, floss, and a few basic stitches take you far.",
            "Charity shops often sell bed sheets and curtains that make excellent, cheap fabric.",
            "A lifeline, a piece of thread run through a row every few centimetres, lets you rip back safely to that row.",
            "Cotton takes fibre-reactive dye well at home; synthetic blends come out paler than the packet shows.",
            "Wash and iron fabric before cutting it, or the finished piece will shrink unevenly the first time it is washed.",
            "Good light matters more than good tools when you work in the evening.",
            "Count your stitches at the end of every row for the first few projects; it catches mistakes early.",
            "A craft group at the library is a good place to get unstuck; experienced knitters love fixing mistakes.",
        ],
    ),
    "volunteering": Topic(
        user=[
            "I'd like to volunteer a few hours a week. Where do people usually start?",
            "Is it weird to volunteer at a food bank if I've never done it before?",
            "How do I say no when the club keeps asking me to take on more?",
            "{name} runs a repair café on {day}s. What do people do there?",
            "Can volunteering help me change careers?",
            "I want to help refugees learn the language. What do I need?",
            "How do I find volunteering that fits around shift work?",
            "Is it better to give money or time to a charity?",
        ],
        assistant=[
            "Local volunteer centres match people to roles by the hours they have, which is an easy way to start.",
            "Food banks are used to first-timers; the first shift is usually sorting donations with someone showing you around.",
            "Saying no to more tasks is easier if you agree in advance how many hours you can give each month.",
            "At a repair café volunteers help visitors fix toasters, clothes and bikes instead of throwing them away.",
            "Volunteering in the field you want to move into gives you experience and references that a course cannot.",
            "Language cafés for newcomers usually need patience and conversation more than teaching qualifications.",
            "One-off events, like clean-ups and races, suit irregular hours better than weekly shifts.",
            "Money lets a charity plan; time helps most when you bring a skill they would otherwise pay for.",
            "Ask what the organisation needs before offering what you would like to do; the two are often different.",
            "Many organisations ask volunteers who work with children for a background check, so allow a few weeks.",
            "A short trial month is a good way to see whether a role suits you before committing for a year.",
            "Keeping a simple log of your hours is useful if you ever want a reference letter.",
        ],
    ),
    "exams": Topic(
        user=[
            "I have a statistics exam in {n} weeks and I keep putting it off. How do I start?",
            "Is it better to study in the morning or at night?",
            "How do flashcards actually help you remember things?",
            "My mind goes blank in exams even when I know the material. What helps?",
            "Should I study alone or with {name} and the others from class?",
            "How many hours a day is it reasonable to revise?",
            "What's the best way to take notes during a lecture?",
            "Is it worth paying for a tutor for one subject?",
        ],
        assistant=[
            "Split the syllabus into small topics and put each one on a calendar; starting with the easiest one breaks the inertia.",
            "Study when you are most alert, which for many people is the morning, and keep the evening for light review.",
            "Flashcards work because they force recall; looking at the answer only after trying to remember is what builds memory.",
            "Practising with past papers under timed conditions is the best cure for blanking; the exam becomes familiar.",
            "Study alone for learning the material and in a group for testing each other; mixing the two works well.",
            "Four to six focused hours a day is a realistic ceiling for most people; beyond that little sticks.",
            "Write down questions and key ideas rather than everything the lecturer says; you can fill in details later.",
            "A tutor pays off when you are stuck on the same kind of problem; a few sessions can unblock a whole topic.",
            "Sleep the night before an exam does more for your score than an extra hour of cramming.",
            "Explaining a topic out loud to someone else shows you exactly which part you do not understand yet.",
            "Short breaks every fifty minutes keep concentration higher than marathon sessions.",
            "Spacing reviews out over days beats reading the same chapter three times in a row.",
        ],
    ),
    "clothes": Topic(
        user=[
            "I have nothing to wear to {name}'s party on {day}. Smart casual, apparently. What does that even mean?",
            "How do I get a red wine stain out of a white shirt?",
            "Is it worth paying more for a good winter coat?",
            "My jeans always wear through at the thigh. Can they be saved?",
            "Which colours go with a {shade} jacket?",
            "How many pairs of shoes does a person really need?",
            "What's a capsule wardrobe and is it realistic?",
            "Can I wash wool jumpers in the machine?",
        ],
        assistant=[
            "Smart casual usually means chinos or dark jeans, a collared shirt or a neat knit, and clean leather shoes, no tie.",
            "Blot red wine straight away, then rinse from the back with cold water and a little washing-up liquid; never use hot water first.",
            "A good coat worn for ten winters costs less per wear than a cheap one replaced every two years.",
            "A tailor can patch worn thighs from the inside so that the repair barely shows.",
            "Earthy jackets pair well with cream, navy and denim; keep the rest of the outfit quiet.",
            "Three or four pairs cover most lives: everyday shoes, something smart, trainers, and boots for bad weather.",
            "A capsule wardrobe is a small set of clothes that all go together; thirty pieces is a common target.",
            "Many machines have a wool cycle that is gentle enough; use cold water and a wool detergent, and dry the jumper flat.",
            "Hang shirts straight out of the machine and most of the creases fall out on their own.",
            "Buy shoes in the afternoon, when your feet are at their largest.",
            "Cedar blocks in the wardrobe keep moths away from wool without the smell of mothballs.",
            "Second-hand shops in wealthier neighbourhoods often have barely worn designer clothes.",
        ],
    ),
    "stargazing": Topic(
        user=[
            "Is it worth buying a telescope, or should I start with binoculars?",
            "When is the next good meteor shower?",
            "I want to see the Milky Way properly. How far from the city do I need to go?",
            "{name} says you can see the space station from here. How do I know when?",
            "Why do stars twinkle but planets don't?",
            "My photos of the moon are just a white blob. What am I doing wrong?",
            "Is there an app that tells me which star is which?",
            "How long does it take for your eyes to adjust to the dark?",
        ],
        assistant=[
            "Start with a pair of 10x50 binoculars; they show craters, star clusters and Jupiter's moons and cost a fraction of a telescope.",
            "The Perseids in mid-August and the Geminids in mid-December are the most reliable meteor showers of the year.",
            "To see the Milky Way clearly you usually need to be at least an hour's drive from a large city, on a moonless night.",
            "Space agencies publish when the station passes over your town; it looks like a bright, steady star crossing the sky in a few minutes.",
            "Stars twinkle because they are points of light bent by moving air; planets are tiny discs, so the flicker averages out.",
            "The moon is brightly lit by the sun, so expose for it as for daylight: a fast shutter and a low ISO.",
            "Sky map apps use your phone's compass to label the stars and planets you point at.",
            "Your eyes need about twenty minutes in real darkness to adapt fully; a red torch keeps that adaptation.",
            "A reclining garden chair and a warm blanket make an evening of stargazing far more comfortable.",
            "The best time for faint objects is a few days either side of the new moon.",
            "Local astronomy clubs often hold open evenings where you can look through big telescopes for free.",
            "Saturn's rings are visible even through a small telescope, and the first sight of them surprises everyone.",
        ],
    ),
    "paperwork": Topic(
        user=[
            "I got a letter about my tax return that I don't understand. What should I do first?",
            "How long do I need to keep old bank statements?",
            "My passport expires in {month}. How early should I renew it?",
            "What's the difference between a will and a power of attorney?",
            "I moved flats. Which places do I need to tell about my new address?",
            "How do I organise all the paper letters that pile up at home?",
            "Is it worth paying someone to do my taxes?",
            "The insurance company rejected my claim. Can I appeal?",
        ],
        assistant=[
            "Read the letter for a deadline first; most tax offices will explain a letter on the phone if you have the reference number ready.",
            "Keeping financial records for six to ten years covers most tax rules; scanning them saves the shelf space.",
            "Renew a passport at least three months before any trip; some countries want six months of validity left.",
            "A will says what happens to your things after you die; a power of attorney lets someone act for you while you are alive.",
            "After a move update the registry office, your bank, your employer, your insurers, and your doctor.",
            "One tray for letters to act on and one folder per year for everything else keeps most households under control.",
            "A tax adviser pays off when you are self-employed, rent out property, or your situation changed a lot.",
            "Most insurers have a formal complaints process; ask for the rejection in writing with the clause they relied on.",
            "Set a calendar reminder for every official deadline the day a letter arrives, not when you plan to deal with it.",
            "Scanned copies of your passport and identity card, kept somewhere safe online, help a lot if they are ever stolen.",
            "Direct debits for regular bills stop late fees, as long as you check the statements now and then.",
            "When you phone an office about a letter, write down the date, the name of the person and what they said.",
        ],
    ),
    "woodworking": Topic(
        user=[
            "I want to build a simple bookshelf myself. What wood should I use?",
            "What tools does a beginner actually need for woodworking?",
            "My screws keep splitting the wood. What am I doing wrong?",
            "How do I get a smooth finish when I paint furniture?",
            "{name} gave me an old oak table that's very scratched. Can I restore it?",
            "Is it safe to use a circular saw without training?",
            "How do I hang heavy shelves on a plasterboard wall?",
            "What's the easiest joint to learn first?",
        ],
        assistant=[
            "Pine is cheap, light and easy to cut, which makes it a good wood for a first bookshelf.",
            "A saw, a drill, a square, a tape measure, clamps and sandpaper are enough for most first projects.",
            "Drill a pilot hole slightly smaller than the screw and the wood will not split, especially near the ends.",
            "Sand between coats with fine paper and use thin coats; most rough finishes come from paint laid on too thick.",
            "An old oak table can be sanded back and oiled; scratches in solid wood usually disappear completely.",
            "Take a short course before using a circular saw; kickback can injure even careful people.",
            "On plasterboard use cavity fixings rated for the weight, or better, find the studs behind it and screw into them.",
            "A butt joint with glue and screws is the easiest to start with; dowels are a good next step.",
            "Measure twice and cut once is an old saying because it is true.",
            "Let glue joints stay clamped for the full time on the bottle, even if they feel firm sooner.",
            "Wear a dust mask when sanding; fine wood dust is bad for the lungs.",
            "Oil finishes are easy to repair later, while varnish is tougher but harder to touch up.",
        ],
    ),
    "birds": Topic(
        user=[
            "A bird with a red chest keeps visiting my balcony. What could it be?",
            "What should I put in a bird feeder in winter?",
            "Is it okay to feed bread to ducks?",
            "I found a baby bird on the ground. Should I pick it up?",
            "{name} got me into birdwatching. What binoculars do people use?",
            "How do I stop the neighbour's cat from catching the birds in my garden?",
            "Why are there so many crows in the park this year?",
            "When should I put up a nest box?",
        ],
        assistant=[
            "A small bird with a red-orange breast that visits balconies is very likely a robin.",
            "Sunflower hearts, suet and peanuts in a mesh feeder give garden birds the fat they need in cold weather.",
            "Bread fills ducks up without feeding them; oats, peas or sweetcorn are much better for them.",
            "A fledgling with feathers on the ground is usually fine and its parents are nearby; leave it unless it is in danger.",
            "Many birdwatchers use 8x42 binoculars: bright, easy to hold steady, and a wide view.",
            "Put feeders high and away from bushes where a cat can hide, and a bell on the cat's collar helps too.",
            "Crows gather where food is easy, like parks with bins and picnics, and they roost together in winter.",
            "Put up nest boxes in autumn or winter so birds can find them before they start nesting in spring.",
            "Clean bird feeders every couple of weeks to stop diseases spreading between birds.",
            "Early morning is the best time to see and hear the most birds, especially in spring.",
            "A shallow dish of water helps birds as much as food does, in frost and in heat.",
            "Bird song apps can name a bird from a recording, which is a good way to learn the common calls.",
        ],
    ),
    "writing": Topic(
        user=[
            "I want to write a short story but I never get past the first page. Any advice?",
            "How do I find time to write when I work full time?",
            "Is it worth joining a writing group?",
            "My dialogue sounds stiff. How do I make it more natural?",
            "{name} wants me to write a speech for her retirement party. Where do I start?",
            "Should I plan the whole plot before I start writing?",
            "How do I deal with rejection from magazines?",
            "What's a good daily word count for a beginner?",
        ],
        assistant=[
            "Give yourself permission to write a bad first draft; editing is where the story gets good.",
            "Twenty minutes before work, every day, adds up to a finished draft faster than waiting for free weekends.",
            "A good writing group gives honest, specific feedback; if it only praises, it will not help you improve.",
            "Read your dialogue out loud; people interrupt, leave sentences unfinished and rarely say each other's names.",
            "A good speech has three stories, one laugh early, and ends with a toast; keep it under five minutes.",
            "Some writers plan every chapter and others discover the plot as they go; try a short outline and see what feels right.",
            "Every published writer has a pile of rejections; send the story to the next magazine the same day.",
            "Three hundred words a day is a realistic start; consistency matters more than volume.",
            "Cut the first paragraph of a draft; stories often really begin with the second.",
            "Keep a notebook for overheard lines and small details; they make scenes feel real.",
            "Reading widely in the genre you want to write is the best writing course there is.",
            "Set a draft aside for a week before revising it; you will see its problems much more clearly.",
        ],
    ),
}

USER_ASIDES = [
    "Okay, noted.",
    "Oh, that's useful, thank you!",
    "Wait, really? I always did the opposite.",
    "Let me write that down before I forget.",
    "Hmm, not sure that works for me, but I'll try.",
    "Can you keep it short? I'm on my phone.",
    "That's basically what {name} told me last {day}.",
    "Perfect. One more thing, though.",
    "Sorry, my train just went into a tunnel. Can you repeat the last bit?",
    "Is there a version of that for lazy people?",
    "Honestly I'd never have figured that out myself.",
    "Cool. What would be step two?",
]
ASSISTANT_ASIDES = [
    "Of course.",
    "Sure, here is the short version.",
    "That is a very reasonable worry.",
    "Plenty of people ask exactly that.",
    "Let's go through it one piece at a time.",
    "There are two ways to look at this.",
    "Glad that helped.",
    "Yes, and it is easier than it sounds.",
    "I would start small with this one.",
    "It is worth getting right once, then it becomes habit.",
]
FOLLOW_UPS = [
    "Hold on, '{}'? How so?",
    "About '{}', is that always the case?",
    "What exactly do you mean with '{}'?",
    "Hm, '{}'. Could you give me an example?",
    "You mentioned '{}'. Is that expensive?",
    "Does '{}' still apply if I'm a complete beginner?",
]

# What the person mentions about other people in passing: "{relation} {name} {event}".
RELATIONS = [
    "My sister-in-law",
    "My stepbrother",
    "My old teacher",
    "My dentist's son",
    "Our new neighbour",
    "A woman from my yoga class",
    "My former roommate",
    "My grandfather",
    "My partner's cousin",
    "The guy who runs the corner shop,",
    "My team lead",
    "My childhood friend",
]
EVENTS = [
    "is walking the Camino this {month}",
    "bought a sailing boat on a whim",
    "started a podcast about trains",
    "moved into a tiny house near {city}",
    "is having knee surgery next {day}",
    "got engaged in {city}",
    "quit his job to become a carpenter",
    "is fostering two kittens",
    "passed her driving test on the fifth try",
    "is learning Portuguese for a move to {city}",
    "ran a charity swim across the lake",
    "opened a record shop in {city}",
    "is expecting twins in {month}",
    "broke his ankle playing padel",
    "turned ninety last {day}",
    "is building a treehouse for her grandkids",
    "won a photography prize in {city}",
    "is cycling across Scotland in {month}",
    "has started keeping bees",
    "got a tattoo of a whale",
]


STORIES: list[Story] = [
    # ---- a fact the person stated once, in passing (single session)
    Story(
        "nephew-age",
        "lc_user",
        "How old is my nephew turning?",
        [
            [
                "*u:My nephew Jakob turns seven next week and wants everything dinosaur-themed, so I'm hunting for presents."
            ]
        ],
        [
            "Children's birthday parties seem to get bigger every year.",
            "A nephew's birthday is a good excuse to visit family.",
        ],
    ),
    Story(
        "camera-bought",
        "lc_user",
        "Which camera did I buy?",
        [["*u:I finally treated myself to a Fujifilm X-T30 from a used camera shop, it came with the kit lens."]],
        [
            "A new camera does not make better photos by itself.",
            "Camera prices have gone up since the pandemic.",
        ],
    ),
    Story(
        "flat-floor",
        "lc_user",
        "What floor is my new flat on?",
        [["*u:The new flat is on the fifth floor and there's no lift, so moving the sofa up was a nightmare."]],
        [
            "Flats on the ground floor are often cheaper but darker.",
            "A new flat always needs more furniture than you think.",
        ],
    ),
    Story(
        "cat-breed",
        "lc_user",
        "What breed is my cat?",
        [["*u:Our cat is a Maine Coon, nine kilos of fluff, and she sleeps on the printer all day."]],
        [
            "Cats sleep between twelve and sixteen hours a day.",
            "Some cat breeds need their fur brushed every day.",
        ],
    ),
    Story(
        "phd-topic",
        "lc_user",
        "What was my thesis about?",
        [
            [
                "*u:Back when I wrote my master's thesis on medieval trade routes in the Baltic, I barely slept for months."
            ]
        ],
        [
            "Writing a thesis is mostly about finishing, not about being perfect.",
            "Many universities now let students submit their thesis online.",
        ],
    ),
    Story(
        "first-job",
        "lc_user",
        "Where did I work for my first job?",
        [
            [
                "*u:My very first job was washing dishes at a pizzeria in Verona when I was sixteen, I still smell the garlic."
            ]
        ],
        [
            "A first job teaches you more about people than about the work.",
            "Summer jobs for teenagers are harder to find now.",
        ],
    ),
    Story(
        "instrument",
        "lc_user",
        "Which instrument am I learning?",
        [["*u:I started taking ukulele lessons on Tuesdays, my fingertips hurt but I love it."]],
        [
            "Learning an instrument as an adult is good for the brain.",
            "Music lessons can be expensive, but group classes help.",
        ],
    ),
    Story(
        "mum-surgery",
        "lc_user",
        "When is my mother's hip operation?",
        [
            [
                "*u:My mum's hip replacement is scheduled for the 9th of March, so I've taken that week off to look after her."
            ]
        ],
        [
            "Recovery from a hip operation takes several weeks of physio.",
            "Hospitals often postpone planned operations in winter.",
        ],
    ),
    Story(
        "language-level",
        "lc_user",
        "What level did I reach in my Spanish exam?",
        [["*u:Got my results: I passed the DELE B2 in Spanish, so the evening classes paid off."]],
        [
            "Language exams test listening, reading, writing and speaking separately.",
            "Spanish is one of the easier languages for English speakers.",
        ],
    ),
    Story(
        "wifi-password",
        "lc_user",
        "What did I change the guest wifi name to?",
        [["*u:I renamed the guest wifi to 'PotatoNet' so visitors can find it easily, the password is on the fridge."]],
        [
            "Changing the default router password is a good idea for security.",
            "Guests always ask for the wifi before anything else.",
        ],
    ),
    Story(
        "holiday-house",
        "lc_user",
        "Where is the holiday cottage we rented for the summer?",
        [["*u:We rented a cottage on the island of Texel for two weeks in July, the kids can cycle everywhere there."]],
        [
            "Holiday cottages book out months in advance for the summer.",
            "Renting a cottage is cheaper than a hotel for a family.",
        ],
    ),
    Story(
        "lost-item",
        "lc_user",
        "Where did I leave my reading glasses?",
        [["*u:Of course I left my reading glasses at my parents' house again, on the kitchen windowsill."]],
        [
            "Reading glasses from the pharmacy are fine for most people.",
            "Everyone loses their glasses at some point.",
        ],
    ),
    Story(
        "tree-planted",
        "lc_user",
        "What tree did we plant in the front garden?",
        [["*u:We planted a Japanese maple in the front garden on Sunday, right where the old hedge was."]],
        [
            "Trees planted in autumn have time to grow roots before summer.",
            "A garden looks bare in the first year after planting.",
        ],
    ),
    Story(
        "allergy-kid",
        "lc_user",
        "What is my daughter allergic to?",
        [["*u:Careful with the snack ideas, my daughter Ilse is allergic to sesame, so no hummus."]],
        [
            "Many children grow out of their food allergies.",
            "Schools are very strict about allergies in packed lunches.",
        ],
    ),
    # ---- something the assistant said (single session)
    Story(
        "lens-advice",
        "lc_assistant",
        "Which aperture did you suggest for my portrait photos?",
        [
            [
                "u:I want blurry backgrounds in my portraits of my grandparents. How do I get that?",
                "*a:Open the aperture wide, around f/1.8 to f/2.8, stand close to your subject and keep the background far behind them; that gives the soft blur you want.",
            ]
        ],
        [
            "Portraits of grandparents become more precious every year.",
            "Blurry photos are usually caused by camera shake, not the lens.",
        ],
    ),
    Story(
        "tyre-pressure",
        "lc_assistant",
        "What tyre pressure did you tell me to use for the trip with the caravan?",
        [
            [
                "u:We're towing a caravan to the coast next month. Do the tyres need anything special?",
                "*a:With a caravan behind you, raise the rear tyres to the full-load pressure in your door sticker, usually around 2.9 bar, and check them cold before setting off.",
            ]
        ],
        [
            "Caravan holidays are popular with families who like flexibility.",
            "Driving with a caravan needs more braking distance.",
        ],
    ),
    Story(
        "stretch-advice",
        "lc_assistant",
        "Which stretch did you recommend for my stiff neck?",
        [
            [
                "u:My neck is stiff every evening after work. Is there a stretch I can do?",
                "*a:Try chin tucks: sit tall, draw your chin straight back as if making a double chin, hold five seconds and repeat ten times, a few times a day.",
            ]
        ],
        [
            "A stiff neck in the morning can come from the wrong pillow.",
            "Stretching after work helps many office workers.",
        ],
    ),
    Story(
        "yarn-amount",
        "lc_assistant",
        "How much yarn did you say I need for the scarf?",
        [
            [
                "u:I'm knitting a long chunky scarf for my dad. How many balls of wool should I buy?",
                "*a:For a long chunky scarf plan on about 400 metres of yarn, which is four 100-gram balls; buy one extra from the same dye lot.",
            ]
        ],
        [
            "Chunky scarves are quick to knit because the needles are thick.",
            "Yarn shops often run knitting groups in the evenings.",
        ],
    ),
    Story(
        "study-method",
        "lc_assistant",
        "What study technique did you recommend for my exam?",
        [
            [
                "u:I read my notes over and over but nothing sticks before the exam. What should I do instead?",
                "*a:Switch to the Feynman technique: pick one concept, explain it in plain words on a blank page as if to a child, and go back to the book only where you get stuck.",
            ]
        ],
        [
            "Exam stress peaks in the last week before the exam.",
            "Highlighting whole pages of notes feels productive but rarely helps.",
        ],
    ),
    Story(
        "telescope-target",
        "lc_assistant",
        "What did you say I should look at first with my new telescope?",
        [
            [
                "u:My telescope just arrived! What should I point it at first tonight?",
                "*a:Start with the Moon along the terminator, where shadows make the craters stand out, and then find Jupiter with its four bright moons.",
            ]
        ],
        [
            "A telescope needs some time outside to cool down before the view is sharp.",
            "Light pollution makes a telescope less useful in the city.",
        ],
    ),
    Story(
        "speech-tip",
        "lc_assistant",
        "How did you suggest I open my best man speech?",
        [
            [
                "u:I'm the best man at my friend's wedding and terrified of the speech. How do I begin it?",
                "*a:Open with a short, true story about the first time you met the groom, one that gets a smile; it relaxes you and the room in the first thirty seconds.",
            ]
        ],
        [
            "Best man speeches should never mention the ex.",
            "Wedding speeches are often the part guests remember most.",
        ],
    ),
    Story(
        "shelf-wood",
        "lc_assistant",
        "Which wood did you suggest for the kitchen shelves?",
        [
            [
                "u:I'm putting open shelves in the kitchen above the stove area. What wood will hold up to steam and heat?",
                "*a:Use solid oak sealed with a hardwax oil; it copes with steam and heat far better than pine, and small marks can be oiled away.",
            ]
        ],
        [
            "Open kitchen shelves collect dust and grease faster than cabinets.",
            "Floating shelves need strong brackets hidden in the wall.",
        ],
    ),
    # ---- a preference the person stated (single session)
    Story(
        "tea-pref",
        "lc_preference",
        "What do I like to drink in the evenings?",
        [["*u:I don't drink alcohol, in the evenings I just have a big mug of rooibos with honey."]],
        [
            "Herbal teas without caffeine are a good choice late in the day.",
            "Evening drinks with friends are a big part of social life here.",
        ],
    ),
    Story(
        "holiday-pref",
        "lc_preference",
        "What kind of holidays do I enjoy?",
        [
            [
                "*u:Beach holidays bore me to death, give me a walking trip in the mountains with a hut to sleep in any day."
            ]
        ],
        [
            "Package holidays are good value for families.",
            "Holidays in the shoulder season avoid the crowds.",
        ],
    ),
    Story(
        "reading-pref",
        "lc_preference",
        "Do I prefer paper books or an e-reader?",
        [["*u:I tried a Kindle but I'm a paper book person, I like the smell and writing in the margins."]],
        [
            "E-readers are easier to carry on long trips.",
            "Libraries now lend e-books as well as paper ones.",
        ],
    ),
    Story(
        "meeting-pref",
        "lc_preference",
        "When do I prefer to have meetings?",
        [
            [
                "*u:Whenever you help me plan my week, keep my mornings free for focused work and put meetings after lunch."
            ]
        ],
        [
            "Too many meetings are the biggest complaint in most offices.",
            "Some teams have a meeting-free day every week.",
        ],
    ),
    Story(
        "gift-pref",
        "lc_preference",
        "What kind of presents do I like to receive?",
        [
            [
                "*u:Honestly I don't want more stuff, the best present for me is an experience, a concert or a cooking class."
            ]
        ],
        [
            "Gift cards are practical but can feel impersonal.",
            "Presents for adults are harder to choose than for children.",
        ],
    ),
    Story(
        "seat-cinema",
        "lc_preference",
        "Where do I like to sit in the cinema?",
        [["*u:At the cinema I always want the very back row in the middle, I hate people behind me."]],
        [
            "Cinema tickets cost more on weekend evenings.",
            "Some cinemas now have reclining seats and serve food.",
        ],
    ),
    # ---- facts spread over several sessions
    Story(
        "museums",
        "lc_multi",
        "Which museums have I visited this year?",
        [
            ["*u:Spent the whole Saturday at the Rijksmuseum, I could have stayed another day."],
            ["*u:We went to the Natural History Museum with the kids, the blue whale skeleton was the highlight."],
            ["*u:Finally saw the Van Gogh Museum, the sunflowers are even brighter in person."],
        ],
        [
            "Museums are free on the first Sunday of the month in some cities.",
            "Museum cafés are always more expensive than they should be.",
        ],
    ),
    Story(
        "projects-made",
        "lc_multi",
        "What have I made in my woodworking class so far?",
        [
            ["*u:In woodworking class I finished my first piece, a small cutting board out of walnut."],
            ["*u:The stool I built in woodworking class is a bit wobbly, but it holds my weight."],
        ],
        [
            "Woodworking classes usually provide the tools for beginners.",
            "Hand-made furniture lasts longer than flat-pack.",
        ],
    ),
    Story(
        "doctor-visits",
        "lc_multi",
        "What did my doctors find at my check-ups this year?",
        [
            ["*u:The doctor said my cholesterol is a bit high at my check-up and wants me to cut back on cheese."],
            ["*u:Eye test today, turns out I need glasses for driving now, minus one point five."],
        ],
        [
            "Regular check-ups catch problems early.",
            "Waiting rooms always seem to run late.",
        ],
    ),
    Story(
        "birds-seen",
        "lc_multi",
        "Which birds have I spotted on my walks?",
        [
            ["*u:On my walk by the river I spotted a kingfisher, a flash of blue and gone."],
            ["*u:Saw a pair of buzzards circling over the fields on my walk this morning."],
        ],
        [
            "Bird walks are a nice way to start the weekend.",
            "Walks are more fun with a pair of binoculars.",
        ],
    ),
    Story(
        "quilt-progress",
        "lc_multi",
        "What have I finished sewing this autumn?",
        [
            ["*u:Finished sewing the curtains for the bedroom, they actually hang straight!"],
            ["*u:I finished sewing a tote bag for my sister's birthday out of an old pair of jeans."],
        ],
        [
            "Autumn is a nice season for indoor hobbies.",
            "Sewing by hand takes much longer than with a machine.",
        ],
    ),
    Story(
        "volunteer-roles",
        "lc_multi",
        "Where have I volunteered?",
        [
            ["*u:Did my first shift at the food bank on Saturday, packing boxes for two hours."],
            ["*u:I helped at the animal shelter again, walking three very excited dogs."],
            ["*u:Spent the morning volunteering at the repair café, I fixed two lamps."],
        ],
        [
            "Volunteering is good for your mood as well as your community.",
            "Many people want to volunteer but never find the time.",
        ],
    ),
    Story(
        "car-repairs",
        "lc_multi",
        "What has been fixed on my car this year?",
        [
            ["*u:The garage replaced the clutch on my car, which cost more than I hoped."],
            ["*u:Had the cracked windscreen on the car fixed this morning, the insurance paid most of it."],
        ],
        [
            "Car repairs always seem to come at the worst possible time.",
            "Independent garages are often cheaper than dealers.",
        ],
    ),
    Story(
        "stories-submitted",
        "lc_multi",
        "Which magazines have I sent my short stories to?",
        [
            ["*u:I sent my short story about the lighthouse keeper to Granta, fingers crossed."],
            ["*u:Submitted my second story to The Stinging Fly, now the long wait starts."],
        ],
        [
            "Literary magazines can take months to reply.",
            "Short stories are a good way to start publishing.",
        ],
    ),
    # ---- a fact that changed later (the question asks for the current one)
    Story(
        "commute-mode",
        "lc_update",
        "How do I get to work these days?",
        [
            ["*u:I drive to work every day, it's only twenty minutes but parking is a pain."],
            ["*u:Since the new tram line opened I take the tram to work and leave the car at home."],
        ],
        [
            "Getting to work by bike is faster than driving in many cities.",
            "Work commutes are shorter for people who can work from home.",
        ],
    ),
    Story(
        "team-size",
        "lc_update",
        "How many people are on my team now?",
        [
            ["*u:My team is just four people, so everyone does a bit of everything."],
            ["*u:After the reorganisation my team has grown to eleven people, and I barely know half of them."],
        ],
        [
            "Small teams make decisions faster than big ones.",
            "A reorganisation at work always causes a lot of rumours.",
        ],
    ),
    Story(
        "choir-day",
        "lc_update",
        "Which evening is my choir rehearsal now?",
        [
            ["*u:Choir rehearsal is on Wednesday evenings, so I can't do anything else that night."],
            ["*u:The choir moved rehearsals to Thursday evenings because the church hall was booked."],
        ],
        [
            "Singing in a choir is good for the lungs and the mood.",
            "Rehearsals get more intense before the Christmas concert.",
        ],
    ),
    Story(
        "phone-model",
        "lc_update",
        "Which phone do I have now?",
        [
            ["*u:I'm still on my old iPhone 8, the battery barely lasts until lunch."],
            ["*u:Finally replaced the old phone with a Pixel 8, the camera is amazing."],
        ],
        [
            "Phones are getting more expensive every year.",
            "A new battery can keep an old phone going for years.",
        ],
    ),
    Story(
        "running-distance",
        "lc_update",
        "How far do I run on my long runs now?",
        [
            ["*u:My long run on Sundays is eight kilometres at the moment, slow and steady."],
            ["*u:I've built my Sunday long run up to eighteen kilometres, I'm training for a half marathon."],
        ],
        [
            "Long runs should be done at an easy pace where you can still talk.",
            "Most running injuries come from increasing distance too quickly.",
        ],
    ),
]
