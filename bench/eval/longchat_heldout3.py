# ruff: noqa: E501  (sentences are kept one line each, as typed)
"""The third held-out long-session chat haystacks (issue 16, eleventh session): new material, its own seed.

`bench/eval/longchat.py` composes haystacks from this file exactly as it does from `longchat_world.py`,
`longchat_heldout.py` and `longchat_heldout2.py` (tuning sets now), once a flag loads it: 40 long
sessions per haystack, 15-40 turns each, the facts stated once in passing inside sessions about other
things, two lures per story in other sessions. Every topic, sentence, slot filler, aside, follow-up and
story here is new: none is in any earlier set. It is written as people type to a chat assistant about
their lives and their side projects at once: lowercase, typos, half sentences, plans, news about other
people, a question now and then about code. Some questions are requests that only a stated preference
answers, some share few words with their answer, some span several sessions, and some carry a time word.

* `WHEN`: for a story whose question says when ("last week", "back in the spring"), the range of days
  ago each of its gold sessions is placed in (what the words mean on the day they are asked); every
  other gold session gets a random age, as in the earlier sets.

Written by hand by the 'writer2' helper and committed alone, before it was first run; never tuned on.
Do not edit it to move a figure: write another set.
"""

from __future__ import annotations

from bench.eval.longchat_world import Story, Topic

SEED = 8081201

SLOTS: dict[str, list[str]] = {
    "name": [
        "Amara",
        "Bjorn",
        "Ciaran",
        "Delphine",
        "Eskil",
        "Fenna",
        "Gideon",
        "Halima",
        "Ilse",
        "Jurgis",
        "Katla",
        "Lorenzo",
        "Maelle",
        "Niamh",
        "Oisin",
        "Pernille",
        "Radu",
        "Saoirse",
        "Thijs",
        "Ulla",
        "Vittoria",
        "Wojtek",
        "Ylva",
        "Zainab",
        "Anouk",
        "Bertil",
        "Cosmin",
        "Dervla",
        "Elio",
        "Frida",
    ],
    "city": [
        "Arles",
        "Bamberg",
        "Cadiz",
        "Dijon",
        "Eindhoven",
        "Faro",
        "Gijon",
        "Hamar",
        "Iasi",
        "Jena",
        "Kotor",
        "Lecce",
        "Mostar",
        "Namur",
        "Oviedo",
        "Perugia",
        "Rijeka",
        "Sligo",
        "Tampere",
        "Umea",
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
    "allotment": Topic(
        user=[
            "finally got an allotment after 3 years on the waiting list!! where do i even start, its all brambles",
            "what can i still sow in {month} that'll actually come up",
            "the slugs ate every single lettuce overnight. every one. how",
            "is it worth building raised beds or do i just dig",
            "my courgettes have loads of flowers but no actual courgettes, whats going on",
            "{name} from the next plot says i should cover everything in cardboard over winter, is that a real thing",
            "how much should i be watering when its this hot, twice a day?",
            "can i put cooked food scraps in the compost or will it bring rats",
            "the committee says we have to keep 75% of the plot cultivated or we lose it, thats a lot of work",
            "what's an easy fruit bush for someone who kills everything",
            "potatoes: do i need to do the earthing up thing or is that old-fashioned",
            "there's an old shed on the plot with a hole in the roof, worth saving?",
            "is it too late to plant garlic",
        ],
        assistant=[
            "Clear one bed at a time rather than the whole plot: a single weed-free bed you can sow this month beats a half-cleared jungle.",
            "Cardboard laid over weeds and weighed down with compost smothers them over a winter, and the worms pull the rest into the soil.",
            "Slugs feed at night, so a torchlit hunt after rain removes more of them than any pellet.",
            "Raised beds warm up sooner in spring and drain better on heavy clay, but they are not needed on good soil.",
            "Courgettes make male flowers first; the female ones, with a tiny fruit behind the petals, usually follow a week or two later.",
            "Water deeply twice a week rather than a little every day, so the roots grow down instead of staying at the surface.",
            "Keep cooked food, meat and dairy out of an open compost heap; vegetable peelings, coffee grounds and cardboard are fine.",
            "Gooseberries and blackcurrants are the hardest fruit bushes to kill and crop well even in partial shade.",
            "Earthing up potatoes keeps the tubers out of the light, so they don't turn green, and it gives you a bigger crop.",
            "A shed with a leaking roof can often be saved with new roofing felt and a few battens in an afternoon.",
            "Garlic wants a spell of cold to split into cloves, so plant it before midwinter if you can.",
            "Broad beans sown in autumn are one of the first crops you pick the following year.",
            "A water butt on the shed gutter saves a lot of trips to the trough in summer.",
            "Mulching around plants with grass clippings keeps the soil moist and the weeds down.",
            "Most allotment sites let you rotate crops in four groups: potatoes, legumes, brassicas and roots.",
            "Nets over brassicas keep pigeons and cabbage white butterflies off them.",
            "Sowing a short row every two weeks gives you salad all summer instead of a glut at once.",
            "Comfrey planted in a corner makes a strong liquid feed once its leaves have rotted in a bucket of water.",
        ],
    ),
    "new_puppy": Topic(
        user=[
            "we pick up the puppy on {day}!! what do i actually need to buy before then",
            "she cries all night in the crate, should i just let her sleep in our bed",
            "how many times a day is a 10 week old meant to eat",
            "she bites our hands constantly, like needle teeth, is that normal",
            "when can she go out on walks, the vet said something about the second jab",
            "toilet training is going terribly, she goes right after we come back inside",
            "{name} says puppy classes are a waste of money, agree?",
            "is it ok to leave her alone while i pop to the shop",
            "she ate a sock. like half of one. do i panic",
            "how do i stop her jumping up at visitors",
            "which chew toys are actually safe, the pet shop has a million",
            "my partner wants to feed her raw food, i'm not sure",
            "how long should walks be for a puppy",
        ],
        assistant=[
            "Before she comes home you need a crate, a bed, two bowls, the food the breeder uses, a collar with a tag and an enzyme cleaner for accidents.",
            "Crying at night in the first week is normal; putting the crate beside your bed lets her hear you without the habit of sleeping in it.",
            "At ten weeks most puppies eat four small meals a day, going down to three at around four months.",
            "Mouthing is normal at this age: say 'ouch', stop playing for a moment, and hand her a toy to bite instead.",
            "Until a week after the second vaccination, carry her outside so she sees the world without touching ground other dogs use.",
            "Stay outside a few minutes longer and praise her the moment she goes; many puppies hold it until the fun of being outside is over.",
            "A good puppy class is less about tricks and more about meeting other dogs and people safely while she's young.",
            "Build up time alone slowly, from a few minutes at a time, so being left becomes boring rather than scary.",
            "If a dog has swallowed fabric, call the vet even if she seems fine: socks can block the gut hours later.",
            "Jumping up is rewarded by attention, so turn away until all four paws are on the floor and greet her then.",
            "Rubber chew toys that are too big to swallow are the safest; avoid cooked bones and hard antlers that crack teeth.",
            "A raw diet needs careful balancing and hygiene; if you try it, follow a recipe worked out by a vet nutritionist.",
            "A common rule of thumb is five minutes of walking per month of age, twice a day, plus play in the garden.",
            "Puppies sleep eighteen hours a day, and an overtired puppy bites more, so enforced naps help everyone.",
            "Teach her name by saying it once and rewarding her when she looks at you.",
            "Short training sessions of two or three minutes work better than one long one.",
            "Handle her paws, ears and mouth gently every day so vet visits and nail trims are easy later.",
            "Keep a puppy's first weeks at home calm: not too many visitors at once.",
        ],
    ),
    "guitar_lessons": Topic(
        user=[
            "my fingertips are killing me after practice, does that ever stop",
            "the F barre chord is impossible. like actually impossible",
            "should i learn to read tabs or proper sheet music",
            "how long should i practise a day if i only have evenings",
            "{name} offered to sell me his old electric, is it bad to switch from acoustic this early",
            "my strings sound buzzy on the first few frets",
            "how often do you change strings, mine are from when i bought it",
            "is it normal that my strumming hand loses the rhythm when i change chords",
            "what's a good first song that doesnt sound like a kids song",
            "do i need a teacher or can i just do youtube",
            "my guitar goes out of tune every time i pick it up",
            "what's a capo for actually",
            "i want to play with other people but i'm scared",
        ],
        assistant=[
            "Sore fingertips usually fade after two or three weeks of daily playing, once calluses form.",
            "For the F barre chord, roll your index finger slightly onto its bony side and move the thumb lower behind the neck.",
            "Tabs are enough for most pop and rock; sheet music is worth learning if you want to play classical or jazz.",
            "Fifteen focused minutes every day does more than two hours once a week.",
            "Switching to an electric early is fine; the lighter strings often make chords easier for a beginner.",
            "Buzzing on the low frets can be the action set too low or simply not pressing close enough to the fret wire.",
            "Strings lose their brightness after a few months of regular playing; change them when they look dull or feel rough.",
            "Practise changing between two chords without strumming at all, then add the strumming once the change is automatic.",
            "Songs with three or four open chords, played at a slow tempo, are the classic first step that still sounds like music.",
            "A teacher spots bad habits early; a few lessons alongside videos is a good middle way.",
            "New strings stretch for a week or so, which is why a freshly strung guitar keeps going out of tune.",
            "A capo clamps across all strings so you can play the same chord shapes in a higher key.",
            "An open mic or a beginners' jam is a friendly first place to play with others.",
            "A clip-on tuner on the headstock is cheaper and more accurate than tuning by ear at first.",
            "Keep your fretting hand's thumb relaxed; squeezing the neck hard tires the hand without making chords cleaner.",
            "Playing along to a metronome at a slow tempo builds timing faster than playing along to the record.",
            "Sitting with the guitar on the left leg, as classical players do, can make the neck easier to reach.",
            "Recording yourself once a week shows progress that you don't hear while you play.",
        ],
    ),
    "side_project": Topic(
        user=[
            "ok so the habit tracker app: flask or fastapi, i know a bit of both",
            "my sqlite file keeps getting locked when two requests come at once",
            "how do i deploy this thing for free, or almost free",
            "the login is just a password in an env var lol, how bad is that",
            "should i write tests for a side project nobody uses yet",
            "the frontend is plain html and a bit of js, do i really need react",
            "how do i send a reminder email every morning without a server running all day",
            "{name} wants to help with the code, whats the easiest way to share it",
            "my docker image is like 1.2GB for a tiny app",
            "how do i store dates so timezones don't bite me later",
            "is it worth adding a dark mode or is that vanity",
            "the page takes 3 seconds to load and i have maybe 20 rows in the db",
            "i keep rewriting the same thing instead of finishing it",
        ],
        assistant=[
            "For a small app with a few forms either is fine; FastAPI gives you typed request models, Flask has more tutorials.",
            "SQLite locks the whole file for writes; turning on write-ahead logging lets readers carry on while one request writes.",
            "Small apps run for free or a few euros a month on a platform with a free tier, or on the cheapest virtual server.",
            "A single password in an environment variable is acceptable for a private tool, as long as it is long and the site uses HTTPS.",
            "A handful of tests around the parts you would hate to break by accident is worth it even for a side project.",
            "Plain HTML with a little JavaScript is plenty for a few pages; reach for a framework when the state gets hard to follow.",
            "A scheduled job on the hosting platform, or a cron entry on a small server, can send the morning email without a process running all day.",
            "Put the code in a Git repository on a hosting site and add your friend as a collaborator.",
            "A slim Python base image and a multi-stage build usually bring a small app's image below 200 MB.",
            "Store timestamps in UTC and convert to the user's time zone only when you show them.",
            "Dark mode is cheap if your colours live in CSS variables; otherwise leave it for later.",
            "Three seconds for twenty rows means the time is spent elsewhere: look for a slow external call or a missing index in the browser's network tab.",
            "Write down the one thing the first version must do, ship that, and keep a list of everything else.",
            "Keep secrets out of the repository by reading them from the environment and listing the .env file in .gitignore.",
            "A simple backup of the SQLite file each night, copied somewhere else, covers most side projects.",
            "Logging each request's path, status and duration is often all the monitoring a small app needs.",
            "A README with the three commands to run the app helps the next person and future you.",
            "Pin your dependency versions so the app you deploy is the app you tested.",
        ],
    ),
    "freelance_taxes": Topic(
        user=[
            "first year freelancing and i have no idea what i can claim as expenses",
            "do i need a separate bank account for the business or is that overkill",
            "how much should i put aside each month for tax, ballpark",
            "a client still hasnt paid an invoice from 2 months ago, how do i chase without being rude",
            "can i claim part of my rent if i work from the spare room",
            "{name} uses an accountant, is it worth it for someone earning not that much",
            "what do i put on an invoice so it's legit",
            "i bought a new laptop for work, is that a one-off expense or something else",
            "do i have to charge VAT, i'm really small",
            "i lost a bunch of receipts from the spring, how screwed am i",
            "how do people handle the months where no work comes in",
            "should i raise my day rate, i havent changed it since i started",
            "what's the deadline for the tax return again",
        ],
        assistant=[
            "Costs you have only because of the work are usually claimable: software, equipment, a share of your phone bill, travel to clients.",
            "A separate account is not always required, but it makes the tax return far easier to put together.",
            "Putting aside around a quarter to a third of every payment is a common rule of thumb until you know your real rate.",
            "A friendly reminder that restates the invoice number, amount and due date, followed by a firmer one a week later, is standard practice.",
            "If a room is used only for work you can usually claim a share of rent and bills, worked out by floor area or number of rooms.",
            "An accountant often pays for themselves in the first year by catching claims and deadlines you would have missed.",
            "An invoice needs your name and address, the client's, a unique number, the date, what you did, the amount and your payment details.",
            "Equipment such as a laptop is often treated as a capital cost and spread over several years, depending on the rules where you live.",
            "Most countries only require VAT registration above a turnover threshold; below it, registering is optional.",
            "Bank statements and emailed order confirmations can often stand in for lost receipts.",
            "A buffer of three months' living costs in a separate savings account takes the fear out of quiet months.",
            "Raising your rate for new clients first is the least awkward way to test a higher price.",
            "Put the filing deadline and the payment date in your calendar with a reminder a month before each.",
            "Photographing receipts the day you get them saves the shoebox panic at the end of the year.",
            "Late payment terms written into your contract make chasing invoices less personal.",
            "A simple spreadsheet with income, expenses and a column for the tax you set aside is enough at first.",
            "Pension contributions can lower your tax bill in many countries, even for freelancers.",
            "Keep your records for as many years as your tax office can ask about, often five or six.",
        ],
    ),
    "newborn_sleep": Topic(
        user=[
            "the baby sleeps great during the day and screams all night, is she broken",
            "how do people get a newborn to sleep anywhere but on them",
            "is white noise bad for their ears",
            "{name} says we should let her cry it out, at 6 weeks?? that feels wrong",
            "how warm should the nursery be, im paranoid",
            "she only naps for 30 minutes at a time",
            "we're both so tired we argue about everything, normal?",
            "should we wake her for feeds or let her sleep",
            "swaddle or sleeping bag, the midwife and my mum say opposite things",
            "when do babies start sleeping through, roughly",
            "she grunts and squirms all night, is she in pain",
            "is it ok for her to nap in the pram outside",
            "how do we split the nights so we both get some sleep",
        ],
        assistant=[
            "Newborns often mix up day and night; bright daylight and normal noise by day, and dim, boring night feeds, help them sort it out.",
            "Putting her down drowsy but still a little awake, after a feed, gives her a chance to learn to settle in the cot.",
            "White noise is fine if it's kept at a moderate volume and the machine sits away from the cot.",
            "Sleep training is usually not recommended before about six months; at six weeks, responding to crying is what she needs.",
            "A room of about 16 to 20 degrees is commonly advised, with a light sleeping bag and no loose blankets.",
            "Thirty-minute naps are very common in young babies and usually lengthen as they grow.",
            "Sleep deprivation makes everyone short-tempered; agreeing in daylight on who does what at night cuts down the three a.m. arguments.",
            "In the first weeks, many midwives advise waking a baby for feeds until she's back at her birth weight; after that, ask your health visitor.",
            "Swaddling should stop once a baby starts trying to roll; a sleeping bag is safe at any age.",
            "Many babies sleep a six-hour stretch by around four to six months, though plenty of them don't.",
            "Grunting and squirming in sleep is normal in newborns, whose digestion and breathing are still maturing.",
            "Napping in a pram outside is common in colder countries; dress her for the weather and keep her in sight.",
            "Taking shifts, one of you on duty until two and the other until morning, gives each of you a block of real sleep.",
            "Always put a baby to sleep on her back, in her own cot, with nothing else in it.",
            "A short, predictable bedtime routine such as a bath, a feed and a song tells her that night is coming.",
            "Cluster feeding in the evening is common and doesn't mean your milk supply is low.",
            "Ask a friend or relative to hold the baby for two hours so you can nap; it is not a luxury.",
            "If you ever feel you can't cope, put the baby safely in the cot and step out of the room for a few minutes.",
        ],
    ),
    "bouldering": Topic(
        user=[
            "went bouldering for the first time and my forearms are dead. like can't open a jar dead",
            "how often can i go without wrecking my fingers",
            "what's the deal with the colour grades, every gym is different",
            "are climbing shoes supposed to hurt this much",
            "i always fall off the same move, the one where you have to reach past your head",
            "{name} keeps telling me to use my feet more, what does that even mean",
            "should i buy chalk or is that for pros",
            "my skin tore on a crimpy hold, how do i look after it",
            "is a fingerboard a good idea for a beginner",
            "i'm scared of falling from the top, any tips",
            "whats the difference between bouldering and the roped stuff",
            "should i stretch before or after",
            "i'm stuck at the same grade for two months",
        ],
        assistant=[
            "Pumped forearms after a first session are normal; they recover faster as your technique improves and you stop over-gripping.",
            "Two or three sessions a week with a rest day between is plenty at first; tendons adapt slower than muscles.",
            "Grades are only consistent within a gym, so compare yourself to your own climbing, not to another gym's colours.",
            "Climbing shoes should be snug with toes slightly curled, but not so tight that you can't wear them for a whole problem.",
            "For a long reach, turn your hip into the wall and straighten the legs; the reach comes from the feet more than the arms.",
            "Using your feet means placing them precisely and pushing with your legs, so the arms only hold you in balance.",
            "Chalk helps everyone, not only experts, because dry hands slip less.",
            "File down torn skin edges so they don't catch, keep the area clean and give it a few days before climbing hard again.",
            "Fingerboards are best left until after a year or two of regular climbing, since young tendons injure easily.",
            "Practise falling from low down first: land on both feet, bend your knees and roll back onto the mat.",
            "Bouldering is short climbs without a rope over thick mats; roped climbing goes higher with a partner belaying.",
            "A gentle warm-up of easy climbs beats static stretching before a session; stretch afterwards if you like.",
            "A plateau is a sign to work on technique: repeat easier problems silently and smoothly instead of trying harder ones.",
            "Watching stronger climbers on a problem you're stuck on often shows you a sequence you didn't see.",
            "Brush the holds of a problem you're working on; the chalk build-up makes them slippery.",
            "Climbing with friends makes the rests between attempts feel shorter and keeps you coming back.",
            "Eat something small an hour before a session; climbing hungry makes you weak and clumsy.",
            "Trim your nails short; long nails break on holds and hurt.",
        ],
    ),
    "car_shopping": Topic(
        user=[
            "our old car failed its inspection, so we need something by the end of {month}",
            "electric or hybrid, we do mostly short trips but visit my parents 300km away twice a year",
            "is buying from a private seller a terrible idea",
            "the dealer is offering 0% finance, whats the catch",
            "what should i check on a test drive besides 'does it go'",
            "{name} says never buy a car that was a rental, true?",
            "how many km is too many for a used car",
            "do we actually need an suv with one kid",
            "the insurance quote for the newer one is way higher, why",
            "can we charge an electric car without a driveway",
            "how do i know if the price is fair",
            "should we sell the old one or trade it in",
            "what about leasing, everyone at work seems to lease",
        ],
        assistant=[
            "For mostly short trips with two long drives a year, a used electric car with 250 km of real range covers you with one charging stop.",
            "Private sales are usually cheaper but come without a dealer's warranty, so an independent inspection matters more.",
            "Zero percent finance often comes with a higher sticker price or expensive extras; compare the total you pay.",
            "On a test drive, listen for knocks over bumps, check that it brakes straight, and try every button and window.",
            "Former rental cars are often well serviced but driven hard; the service history matters more than who owned it.",
            "The way a car was maintained matters more than mileage; a full service record at high mileage can beat a neglected low-mileage car.",
            "A family with one child rarely needs an SUV; an estate car gives as much boot space and costs less to run.",
            "Insurance is priced on the car's value, repair costs and theft rates, so newer and sportier models cost more.",
            "Without a driveway you can rely on public chargers or charging at work, but check the nearest ones and their prices first.",
            "Compare the same model, year and mileage on two or three listing sites to see what a fair price looks like.",
            "Selling privately usually gets you more money; a trade-in is quicker and can sweeten the deal.",
            "Leasing gives you a newer car for a fixed monthly cost, but you own nothing at the end and pay for extra kilometres.",
            "Ask for the car's inspection history; repeated advisories show what has been put off.",
            "A cold start tells you more than a warm one, so ask the seller not to run the engine before you arrive.",
            "Check the tyres: four matching, decent tyres suggest an owner who looked after the car.",
            "Electric cars lose some range in winter, so plan on about a fifth less in the cold.",
            "Budget for the first service and a set of tyres when you work out what a used car really costs.",
            "Never pay a deposit on a car you haven't seen in person.",
        ],
    ),
    "kitchen_reno": Topic(
        user=[
            "we're finally redoing the kitchen, its from the 90s and the cupboard doors are falling off",
            "is it cheaper to just replace the doors and keep the carcasses",
            "the quote from the kitchen company is 18k, that seems insane",
            "gas or induction hob, we have a gas pipe already",
            "how long will we be without a kitchen, realistically",
            "{name} did theirs with flat pack and says its fine, thoughts",
            "which worktop doesnt stain, we cook a lot of curry",
            "we want to knock through to the dining room, do we need permission",
            "do i need an electrician for moving sockets",
            "what's the point of a kitchen designer if the shop does it free",
            "how do people survive the weeks with no kitchen",
            "open shelves or wall cupboards, pinterest says shelves",
            "we keep arguing about the colour. green or white",
        ],
        assistant=[
            "If the cabinet boxes are solid, new doors, handles and a worktop can change the look for a fraction of the cost.",
            "Kitchen quotes vary wildly; get at least three, broken down into units, worktops, appliances and fitting.",
            "Induction heats faster, is easier to clean and safer with children; the gas pipe can be capped by a registered engineer.",
            "A full kitchen refit usually takes two to four weeks of work, longer if walls or plumbing move.",
            "Flat-pack units from good makers are often as sturdy as fitted ones; the fitting is what makes them look good.",
            "Quartz worktops resist stains from spices and oils far better than wood or marble.",
            "Removing a wall between rooms may need a structural engineer's calculation and building control approval if the wall is load-bearing.",
            "Moving sockets in a kitchen is notifiable electrical work in many places, so use a certified electrician.",
            "An independent designer can spot layout problems a shop's free plan glosses over, and pays for that in a better-used space.",
            "A temporary kitchen in another room with a microwave, kettle, toaster and a washing-up bowl makes the weeks bearable.",
            "Open shelves look lovely but collect grease and dust near the hob; one or two shelves beside closed cupboards is a good compromise.",
            "Paint a large sample board in each colour and look at it in the morning and evening light before deciding.",
            "The classic work triangle keeps the sink, hob and fridge within a few steps of each other.",
            "Order appliances early; delays on one oven can hold up the whole fitting.",
            "A deep drawer for pans is easier to use than a low cupboard you have to kneel in front of.",
            "Leave some budget spare, a tenth at least, for what you find behind the old units.",
            "Under-cupboard lights make a bigger difference to working in a kitchen than the ceiling light.",
            "Ask the fitter to leave the offcuts of the worktop; they make good chopping boards and repair pieces.",
        ],
    ),
    "italian_lessons": Topic(
        user=[
            "started italian on an app, 40 day streak, but i still can't order a coffee out loud",
            "the difference between passato prossimo and imperfetto is breaking my brain",
            "how do i remember which nouns are masculine",
            "my teacher talks so fast, i catch like one word in five",
            "is it worth getting a tutor online",
            "{name} is italian and offered to do a language swap, how do we structure that",
            "what should i watch to practise, something not too hard",
            "the double consonants, i can't hear the difference",
            "should i learn the formal lei form first or the tu",
            "how long until i can have a real conversation",
            "i freeze every time someone actually speaks to me",
            "are flashcards actually useful or just busywork",
            "we're going to puglia in the summer, what phrases do i need",
        ],
        assistant=[
            "Apps build vocabulary, but speaking only improves by speaking; say every answer out loud, even alone.",
            "The imperfect describes what was going on or used to happen; the passato prossimo tells you what happened once and is finished.",
            "Most nouns ending in -o are masculine and most ending in -a feminine; learn the ones ending in -e with their article.",
            "Fast speech gets easier with lots of listening to things slightly above your level, replayed several times.",
            "A weekly online tutor gives you the speaking practice and correction an app can't.",
            "In a language swap, split the hour in two halves, one language each, and agree that you correct only the big mistakes.",
            "Children's series and slow news podcasts are a good middle ground between textbook dialogues and real films.",
            "Double consonants are held a little longer, like a tiny pause before the next vowel; exaggerate them at first.",
            "Learn both, but use the formal form with strangers and shop staff until they switch to the familiar one.",
            "With steady practice, simple conversations about everyday things usually come after six months to a year.",
            "Freezing is normal; have three ready phrases for buying time, like asking the person to repeat or speak more slowly.",
            "Flashcards with spaced repetition are one of the most efficient ways to keep vocabulary, if you make them from your own sentences.",
            "For a trip, greetings, ordering food, asking the way and numbers up to a hundred cover most situations.",
            "Shadowing, repeating a recording a second behind it, trains your accent and rhythm together.",
            "Writing a short diary entry each day, even three sentences, shows you the words you're missing.",
            "Regional accents differ a lot in Italy, so expect the south to sound different from your app.",
            "Learning phrases as whole chunks beats building every sentence from grammar rules.",
            "Don't worry about the subjunctive until the basics feel easy.",
        ],
    ),
    "job_hunt": Topic(
        user=[
            "i've been at this company 7 years and i think i need out, where do i start",
            "how do i explain why i'm leaving without trashing my current boss",
            "my cv is two pages, is that too long",
            "a recruiter messaged me on linkedin, how do i know if its legit",
            "what do i say when they ask for my salary expectations",
            "{name} got a job through a referral, should i be asking people",
            "the take-home task they sent would take like 10 hours, is that normal",
            "how do i answer 'tell me about a time you failed'",
            "i have an interview on {day} and i'm terrified",
            "should i tell my manager i'm looking",
            "i got an offer but i'm waiting to hear from another place",
            "can i negotiate if the offer is already good",
            "how do i prepare questions to ask them",
        ],
        assistant=[
            "Start by writing down what you want more of and less of in your next job; it keeps the search focused.",
            "Talk about what you're moving towards, such as more responsibility or a different field, rather than what you're leaving.",
            "Two pages is fine for seven years of experience, as long as the first half page tells the story.",
            "A genuine recruiter will name the company or at least the industry and salary range when you ask.",
            "Give a range based on research into similar roles, with the bottom of it at a number you'd happily accept.",
            "Most people are glad to refer a former colleague, and a referral puts your CV in front of a person rather than a filter.",
            "It is reasonable to ask how long a take-home task should take and to decline one that needs a whole weekend.",
            "Pick a real failure that didn't ruin anything, explain what you did about it and what you now do differently.",
            "Prepare three stories about work you are proud of; most interview questions can be answered with one of them.",
            "Keep the search to yourself until you have a signed offer, unless you trust your manager completely.",
            "Ask the second company whether they can speed up; having another offer is a normal reason to ask.",
            "A polite counter-offer rarely loses you a job; ask about salary, start date or extra holiday.",
            "Ask what a good first six months would look like, and what the last person in the role moved on to.",
            "Research the company's recent news so you can connect your experience to what they're doing now.",
            "A short thank-you email after an interview is still appreciated.",
            "Practising answers out loud, even to a mirror, makes them come out calmer in the room.",
            "Check the company's reviews from current and former employees, but read them with some salt.",
            "Job searching while employed is tiring; two or three good applications a week is a pace you can keep up.",
        ],
    ),
    "burnout": Topic(
        user=[
            "i think i'm burnt out. i dread opening my laptop every morning",
            "how do i tell my manager i need to slow down without sounding weak",
            "i can't switch off in the evenings, my head keeps replaying meetings",
            "my gp offered sick leave, is it bad to take it",
            "{name} says i should just take a long holiday and it'll pass",
            "how do i say no to extra projects without getting a reputation",
            "i used to love running and now i cant be bothered with anything",
            "is it normal to feel guilty for resting",
            "what actually helps, like concretely, not bubble baths",
            "should i look for a therapist or is this just work stress",
            "how do i come back after time off without drowning in email",
            "my sleep is a mess, i wake up at 4 and start planning",
            "i keep checking slack on my phone in bed",
        ],
        assistant=[
            "Dread before the working day, exhaustion that rest doesn't fix and feeling detached from work are the classic signs of burnout.",
            "Bring your manager a concrete picture: what you're carrying, what's slipping, and which two things you'd drop or hand over.",
            "A short shutdown ritual, writing tomorrow's first task and closing the laptop, helps the head stop rehearsing the day.",
            "Sick leave for burnout is what it's there for; taking it early often shortens the recovery.",
            "A holiday helps for a while, but if the workload stays the same the exhaustion usually returns within weeks.",
            "Saying 'I can take that if I drop this; which matters more?' turns a no into a question about priorities.",
            "Losing interest in things you enjoyed is common in burnout; small, low-effort doses of them can bring it back slowly.",
            "Guilt about resting is very common in people who burn out; treat rest as part of the job, not a reward for finishing it.",
            "Regular meals, daylight in the morning, movement you don't have to plan, and one evening a week with no screens are unglamorous but work.",
            "A therapist is worth seeing if low mood lasts for weeks, or if it spills beyond work into the rest of your life.",
            "Ask for a return plan with reduced hours for the first weeks, and let colleagues tell you what matters instead of reading every email.",
            "Waking at four and planning is a sign of an overloaded mind; a notepad by the bed to park the thoughts can help you fall back asleep.",
            "Remove work apps from your phone, or at least turn off their notifications after a fixed time.",
            "Telling one trusted colleague how you feel makes it easier to ask for help on a bad day.",
            "Recovery from burnout is rarely a straight line; expect good weeks and bad ones.",
            "Boundaries are easier to keep when they are written down and agreed, such as no meetings after five.",
            "Short walks between tasks reset attention better than scrolling does.",
            "If you ever have thoughts of harming yourself, contact a doctor or a crisis line straight away.",
        ],
    ),
    "campervan_trip": Topic(
        user=[
            "we're renting a campervan for 2 weeks in {month}, never done it before, help",
            "how far can we realistically drive in a day without hating each other",
            "do we need to book campsites or can we just turn up",
            "is wild camping in a van actually allowed or do people just do it",
            "how does the toilet thing work in a van. asking for a friend",
            "{name} did the same trip and says take a bike rack, worth the extra",
            "what do we cook on one gas ring for two weeks",
            "the van has a 90 litre water tank, how long does that last",
            "how do we keep phones charged, is there a socket",
            "what if it rains every day",
            "we're taking the dog, anything special",
            "how do you empty the grey water",
            "insurance for the rental, do we need the extra cover",
        ],
        assistant=[
            "Plan on three to four hours of driving a day; a van is slower than a car and you'll want time to stop where it's nice.",
            "In peak season book the first and last nights and any popular spots; elsewhere, turning up in the afternoon usually works.",
            "Wild camping rules differ by country and even by region; some allow one night, others fine you, so check before you go.",
            "A cassette toilet is a removable tank you empty at a campsite's chemical disposal point every two or three days.",
            "A bike rack is worth it if you plan to park for a few days and explore; otherwise it's just extra length.",
            "One-pot meals such as pasta, curries and risotto are easy on a single ring; a kettle and a frying pan cover breakfast.",
            "Ninety litres lasts two people two to four days if you shower at campsites and wash up sparingly.",
            "Most vans charge a leisure battery while driving; a 12-volt USB socket or a small power bank covers phones.",
            "Rainy days are easier with an awning, a pack of cards and a list of cafés, pools and museums along the route.",
            "Dogs need shade and water in a van; never leave one inside on a warm day, even with the windows open.",
            "Grey water drains from a tap under the van into a campsite's drain; never let it out by the roadside.",
            "Extra cover that cuts the excess to zero is often worth it in a large van you're not used to driving.",
            "Level the van with ramps before you sleep; a slope you don't notice by day keeps you awake at night.",
            "Pack soft bags rather than suitcases, which don't fit in a van's cupboards.",
            "Fill up the water and empty the tanks whenever you pass a service point, not only when you must.",
            "A paper map helps where mobile reception drops in the mountains.",
            "Mind the van's height under bridges and in car parks with barriers.",
            "Air the van every morning to stop condensation building up on the windows.",
        ],
    ),
    "home_server": Topic(
        user=[
            "got a raspberry pi for christmas, want to put all our photos on it instead of google",
            "is an old laptop better than a pi for a home server",
            "how do i back up the server itself, feels like a loop",
            "should i run everything in docker or just install stuff",
            "{name} says i should never open ports on my router, how do i reach it from outside then",
            "the sd card died after 6 months, is that normal",
            "what do people actually run on these things",
            "how much power does a pi use, will my electricity bill notice",
            "i want an ad blocker for the whole house, is that hard",
            "the fan on the old laptop is so loud",
            "how do i get a proper name instead of typing the ip",
            "my partner just wants it to work, how do i avoid being the only one who can fix it",
            "is RAID a backup",
        ],
        assistant=[
            "A photo server on a Pi works well with the photos on an external SSD rather than the SD card.",
            "An old laptop has a built-in screen, keyboard and battery as a small power cut backup, but uses more power than a Pi.",
            "Back up the data to a second disk and to another place, and keep the server's own setup in a written script so you can rebuild it.",
            "Containers keep each service's files apart and make updates and rebuilds repeatable; a handful of installs works too at first.",
            "A VPN such as WireGuard or a mesh VPN lets you reach your home server from outside without opening its services to the internet.",
            "SD cards wear out under constant writes; booting from a USB SSD lasts much longer.",
            "Popular home services include photo libraries, file sync, media servers, a network ad blocker and home automation.",
            "A Pi uses a few watts, so running it all year costs about as much as a couple of coffees.",
            "A network-wide ad blocker runs as a DNS server; point your router's DNS setting at it and every device is covered.",
            "Cleaning the dust from an old laptop's fan and heat sink often makes it much quieter.",
            "Local names work if your router supports them or if you run a small DNS service; otherwise a hosts file entry does it.",
            "Write a one-page note of what runs where and how to restart it, and keep it somewhere your partner can find.",
            "RAID keeps a server running when one disk dies, but it is not a backup: deleted or corrupted files are gone from both disks.",
            "Automatic updates for the operating system close most security holes without you having to remember.",
            "Test restoring from your backup once; a backup you have never restored is a hope, not a plan.",
            "A small uninterruptible power supply protects the disks from sudden power cuts.",
            "Give the server a fixed address in the router so its services don't move when it restarts.",
            "Start with one service you'll really use, and add others only once that one runs without attention.",
        ],
    ),
}


USER_ASIDES = [
    "ha ok",
    "right right",
    "ugh fine",
    "sorry, my kid just spilled juice on the keyboard",
    "ok that makes sense actually",
    "can u do a shorter version",
    "wait one sec, someone at the door",
    "hmm not sure that's for me",
    "{name} would love that lol",
    "mm ok, noted",
    "this is way more than i needed but thanks",
    "i'll try it on {day} and report back",
    "ok moving on",
    "sorry if thats a dumb question",
]
ASSISTANT_ASIDES = [
    "Happy to help with this one.",
    "Not a dumb question at all.",
    "Let me break that down.",
    "Here's the quick answer.",
    "There are a few options.",
    "That depends a little on your situation.",
    "Fair enough.",
    "Sure, shorter then.",
    "Good that you asked before starting.",
    "I'd keep it simple.",
]
FOLLOW_UPS = [
    "hold on, '{}'? why",
    "'{}', is that true for everyone or just in some places",
    "ok '{}' but how long does that take",
    "explain '{}' again pls, lost you there",
    "you mentioned '{}', whats the cheapest way to do that",
    "'{}'... my mum would disagree lol",
    "not sure i get '{}', example?",
    "coming back to '{}': do i really have to",
    "and if '{}' doesn't help?",
]
RELATIONS = [
    "The woman I run with on sundays,",
    "My dad's new wife",
    "The guy who fixes our boiler",
    "My old flatmate from uni",
    "My manager's manager",
    "My partner's niece",
    "Our childminder",
    "My best mate",
    "My partner's aunt",
    "A woman from my italian class,",
    "My grandad",
    "The couple across the road",
]
EVENTS = [
    "is cycling across {city} for charity",
    "got a place on a cooking course in {city}",
    "quit her job to become a carpenter",
    "is having twins in {month}",
    "moved into a houseboat",
    "broke his wrist skateboarding at fifty",
    "got engaged on a ferry",
    "opened a tiny bookshop",
    "passed her driving test after failing four times",
    "is learning the accordion",
    "started a band that only plays covers of one song",
    "got a puppy the same week as us",
    "is doing a month of silence in {month}",
    "won a pub quiz on {day} by one point",
    "ran out of petrol on the motorway to {city}",
    "sold his flat in {city} and bought a van",
    "is getting baptised at 40",
    "got lost for six hours on a hike",
    "is training to be a midwife",
    "finally got her citizenship",
]


STORIES: list[Story] = [
    # ---- a fact the person stated once, in passing (single session)
    Story(
        "plot-number",
        "lc_user",
        "which plot did we get at the allotment?",
        [["*u:we got plot 23b!! right at the far end by the compost bays, next to a man who only grows dahlias"]],
        [
            "Allotment plots are often handed out in the order people joined the list.",
            "Some allotment sites split a full plot in two for beginners.",
        ],
    ),
    Story(
        "puppy-from",
        "lc_user",
        "where did we get the puppy from?",
        [
            [
                "*u:she's from a rescue out in the countryside, a farm collie's accidental litter, the woman who runs it cried when we drove off"
            ]
        ],
        [
            "Getting a puppy from a breeder means asking to see the mother.",
            "A puppy from abroad needs a passport and a rabies jab before it travels.",
        ],
    ),
    Story(
        "guitar-slot",
        "lc_user",
        "When are my guitar lessons?",
        [
            [
                "*u:lessons are sorted, every other tuesday at 7 with a guy called Marten who has a little studio above a bike shop"
            ]
        ],
        [
            "Guitar lessons for adults are often cheaper in groups.",
            "Most guitar teachers ask you to bring your own instrument to lessons.",
        ],
    ),
    Story(
        "app-name",
        "lc_user",
        "what did I decide to call my habit app a few months ago?",
        [["*u:the habit tracker has a name now, Streakly, the domain was 9 euros so i just grabbed it"]],
        [
            "Naming an app after what it does makes it easier to find in a store.",
            "Habit apps often reward you for a run of days in a row.",
        ],
    ),
    Story(
        "unpaid-amount",
        "lc_user",
        "how much is the client who hasn't paid me still owing?",
        [["*u:the invoice they're sitting on is 2,340 euros, for the brochure work i did in the summer"]],
        [
            "Clients who pay late usually pay in the end if you keep reminding them.",
            "Small businesses are owed money by clients far more often than they owe it.",
        ],
    ),
    Story(
        "birth-weight",
        "lc_user",
        "How much did the baby weigh when she was born?",
        [["*u:she was 3.2 kilos at birth, the midwife said perfectly average which i found weirdly comforting"]],
        [
            "Babies often lose some weight in their first days and gain it back within two weeks.",
            "A baby's weight is checked at every visit in the first months.",
        ],
    ),
    Story(
        "climbing-gym",
        "lc_user",
        "which climbing gym did I join the other day?",
        [
            [
                "*u:signed up at Blokhal Noord, the one in the old tram depot, the membership is monthly so no big commitment"
            ]
        ],
        [
            "Climbing gyms often give you a free first visit if you bring a friend.",
            "Joining a gym in January is the busiest time of the year.",
        ],
    ),
    Story(
        "car-picked",
        "lc_user",
        "which car are we picking up from the dealer?",
        [["*u:we signed for a used Kia Niro, the dark blue one, 2021, and we pick it up on the 3rd"]],
        [
            "Picking up a car from a dealer is a good moment to check every scratch.",
            "A dealer will usually fill the tank before you pick up a used car.",
        ],
    ),
    Story(
        "worktop",
        "lc_user",
        "What did we choose for the kitchen worktop?",
        [["*u:went for a dark grey quartz worktop in the end, the turmeric test in the showroom sold it"]],
        [
            "Choosing a worktop is easier with a sample at home for a week.",
            "Kitchen worktops are usually measured only once the units are fitted.",
        ],
    ),
    Story(
        "tutor-name",
        "lc_user",
        "what's my italian tutor called?",
        [["*u:found a tutor online finally, Chiara, she's from Bari and laughs at my accent in the nicest way"]],
        [
            "An italian tutor can be booked by the hour on most language sites.",
            "Some tutors are called community tutors because they have no teaching diploma.",
        ],
    ),
    Story(
        "interview-place",
        "lc_user",
        "which company did I have the interview with last week?",
        [
            [
                "*u:interview done at Ferrolux, the logistics software people, three on the panel and one of them never smiled once"
            ]
        ],
        [
            "Companies that interview with a panel usually decide within a week.",
            "An interview with a company you like can feel harder than one you don't care about.",
        ],
    ),
    Story(
        "therapy-slot",
        "lc_user",
        "when do I see the therapist?",
        [["*u:first therapy session is booked, wednesdays at 8 in the morning before work, so no excuses"]],
        [
            "Seeing a therapist for the first time is mostly about getting to know each other.",
            "Many therapists offer video sessions when you can't make it in person.",
        ],
    ),
    Story(
        "van-pickup",
        "lc_user",
        "Where do we collect the campervan?",
        [["*u:the van pickup is a depot outside Clermont-Ferrand, we take the train down and drive off from there"]],
        [
            "Rental companies usually show you how the campervan works when you collect it.",
            "Collecting a van late in the day leaves little time to find a campsite.",
        ],
    ),
    Story(
        "server-disk",
        "lc_user",
        "how big is the disk I ordered for the pi?",
        [["*u:ordered a 2TB ssd for the pi, the photos are like 700 gigs so that should last us a while"]],
        [
            "A disk for a pi needs a powered adapter if it draws a lot of current.",
            "The pi can start from a disk instead of the card once you change one setting.",
        ],
    ),
    Story(
        "sister-due",
        "lc_user",
        "When is my sister's baby due?",
        [["*u:my sister is due on the 9th of march, she wants me there so i'm not booking anything that week"]],
        [
            "A baby's due date is only a guess; most arrive within two weeks of it.",
            "Sisters who have babies close together often share the baby clothes.",
        ],
    ),
    # ---- something the assistant said (single session)
    Story(
        "slug-plan",
        "lc_assistant",
        "what did you tell me to do about the slugs?",
        [
            [
                "u:the slugs are back and they've moved on from the lettuce to the beans now",
                "*a:Go out with a torch an hour after dark and pick them off into a jar, sink beer traps to the rim every two metres along the bean rows, and keep the grass around the bed cut short.",
            ]
        ],
        [
            "Slugs are worst in a wet spring after a mild winter.",
            "Some gardeners say slugs avoid copper tape, others say it does nothing.",
        ],
    ),
    Story(
        "crate-steps",
        "lc_assistant",
        "how did you say to get the puppy used to her crate?",
        [
            [
                "u:she won't go in the crate at all, she plants her feet and looks at me like i'm a monster",
                "*a:Feed every meal in the crate with the door open for a week, then close it for one minute while she eats and add a minute each day; and never send her in there as a punishment.",
            ]
        ],
        [
            "A crate should be just big enough for the puppy to turn around and lie flat.",
            "Puppies used to a crate often go in on their own to nap.",
        ],
    ),
    Story(
        "barre-tip",
        "lc_assistant",
        "what was your tip for my barre chords?",
        [
            [
                "u:barre chords still sound like a cat in a blender, only two strings ring",
                "*a:Put the barre just behind the fret rather than in the middle of it, and practise only the top three strings of the shape until they ring cleanly, then add the rest one string at a time.",
            ]
        ],
        [
            "Barre chords are the point where a lot of people give up the guitar.",
            "Some players avoid barre chords for years by using a capo.",
        ],
    ),
    Story(
        "db-locked",
        "lc_assistant",
        "what did you suggest for the 'database is locked' errors in my app?",
        [
            [
                "u:streakly throws 'database is locked' whenever two people tick a habit at the same second",
                "*a:Switch the database to write-ahead logging once at startup with PRAGMA journal_mode=WAL, open one connection per request, and set a busy timeout of five seconds so a writer waits instead of failing.",
            ]
        ],
        [
            "A database that is locked for long is often one that a process forgot to close.",
            "Errors in an app are easier to fix when the log shows which request failed.",
        ],
    ),
    Story(
        "rate-raise",
        "lc_assistant",
        "By how much did you say I should raise my rates?",
        [
            [
                "u:ok i'm doing it, i'm raising my prices. but how much without losing everyone",
                "*a:Go up about 15 percent for every new client from the first of next month, and give your existing clients two months' notice of a smaller rise, around 10 percent.",
            ]
        ],
        [
            "Freelancers who raise their rates rarely lose as many clients as they fear.",
            "Rates for the same work differ a lot between cities.",
        ],
    ),
    Story(
        "van-water",
        "lc_assistant",
        "what did you tell me a couple of weeks ago about the water in the van?",
        [
            [
                "u:is the water from the van's tank actually safe to drink? it tasted a bit plasticky",
                "*a:Fill the fresh tank only at taps marked as drinking water, add a sterilising tablet when you first fill it, and keep a separate five-litre bottle for drinking, cooking and coffee.",
            ]
        ],
        [
            "Water in a van weighs a lot, so some people travel with the tank half full.",
            "The van's water heater runs on gas or on a campsite's electricity.",
        ],
    ),
    Story(
        "failure-story",
        "lc_assistant",
        "which story did you say I should tell for the failure question?",
        [
            [
                "u:the failure question. honestly the only real one is when i missed the migration deadline in 2021 and we lost a client",
                "*a:Use the missed migration: say you took on too much without flagging it, that you now raise a risk in the week you notice it, and finish with this year's project where you flagged a slip early and it landed on time.",
            ]
        ],
        [
            "A story about failure works best when it ends with what you changed.",
            "Interviewers ask the failure question to see whether you blame other people.",
        ],
    ),
    Story(
        "return-plan",
        "lc_assistant",
        "What return plan did you suggest for going back after my sick leave?",
        [
            [
                "u:my gp says i can go back in two weeks. what do i ask for so i don't crash again",
                "*a:Ask for four weeks of half days, mornings only, with no on-call and a short check-in with your manager every Friday, and spend your first hour back being briefed by a colleague instead of reading email.",
            ]
        ],
        [
            "Going back after sick leave is easier when the team knows what to expect.",
            "A plan for the first weeks back should be written down and agreed.",
        ],
    ),
    Story(
        "adblock-dns",
        "lc_assistant",
        "what did you say last month about setting up the ad blocker?",
        [
            [
                "u:installed the ad blocker on the pi but half the ads still show up on my phone",
                "*a:Set the Pi as the only DNS server in the router's settings, not as a second one beside the provider's, or devices will quietly go around it; then restart the phone's wifi.",
            ]
        ],
        [
            "An ad blocker can break some shopping sites, so keep a way to switch it off.",
            "Setting up an ad blocker on a phone app only covers that phone.",
        ],
    ),
    # ---- a preference the person stated (single session); most questions are requests it answers
    Story(
        "veg-only",
        "lc_preference",
        "what should I plant on the plot next spring?",
        [
            [
                "*u:just so you know, i only want to grow things we actually eat, we're vegetarian and get through a mountain of beans and squash, no flowers"
            ]
        ],
        [
            "Planting in spring depends on when the last frost usually comes.",
            "A plot planted too densely next to a hedge will struggle for light.",
        ],
    ),
    Story(
        "soul-songs",
        "lc_preference",
        "can you suggest a song I could learn next?",
        [["*u:i'm really into old soul and motown, that's what i want to play, not campfire singalongs"]],
        [
            "A song you could learn in a weekend is usually one with a repeating riff.",
            "Learning a song by ear is slower at first but trains your hearing.",
        ],
    ),
    Story(
        "small-car",
        "lc_preference",
        "what kind of car should we be looking at?",
        [["*u:for the record i refuse to drive anything big, i'm a terrible parker and our street is tiny"]],
        [
            "Looking at cars online first saves a lot of wasted weekends.",
            "The kind of car people buy often says more about their neighbours than them.",
        ],
    ),
    Story(
        "talk-not-drill",
        "lc_preference",
        "How should I practise my italian this week?",
        [["*u:i learn by talking, not by worksheets, grammar drills make me want to quit the whole thing"]],
        [
            "Practising a language every day matters more than for how long.",
            "Some learners practise with a timetable stuck on the fridge.",
        ],
    ),
    Story(
        "gluten-free",
        "lc_preference",
        "what could we cook in the van tonight?",
        [["*u:my partner is coeliac btw, so everything we cook has to be gluten free, even the soy sauce"]],
        [
            "Cooking in a van tonight or any night is easier with the door open.",
            "Many campsites have a shop that sells the basics for dinner.",
        ],
    ),
    Story(
        "morning-person",
        "lc_preference",
        "When should I ask them to schedule the next interview?",
        [["*u:i'm useless after lunch, if i get a choice i always want interviews first thing in the morning, like 9"]],
        [
            "Companies schedule the next interview round once everyone has given feedback.",
            "It is fine to ask for a different interview time if the first one doesn't suit you.",
        ],
    ),
    Story(
        "no-meditation",
        "lc_preference",
        "what could I do to unwind after work?",
        [
            [
                "*u:please no meditation apps, they make me more anxious not less, i'd rather do something physical like swimming or digging"
            ]
        ],
        [
            "Unwinding after work gets harder when you work from home.",
            "What people do after work to relax changes a lot with age.",
        ],
    ),
    # ---- facts spread over several sessions
    Story(
        "puppy-commands",
        "lc_multi",
        "what has the puppy learned so far?",
        [
            ["*u:she can SIT. on command. i nearly cried"],
            ["*u:new trick unlocked: she gives her paw now, mostly the left one"],
            ["*u:and she waits at the door until we say ok before going out, the trainer was impressed"],
        ],
        [
            "Puppies learn fastest in short sessions before meals.",
            "What a puppy has learned at home it often forgets at the park at first.",
        ],
    ),
    Story(
        "songs-learned",
        "lc_multi",
        "which songs can I play all the way through now?",
        [
            ["*u:i can play Stand By Me start to finish!! slowly, but no stopping"],
            ["*u:got through My Girl without looking at the tab today, the riff took forever"],
        ],
        [
            "Playing a song all the way through is different from knowing its chords.",
            "Most songs can be simplified to three or four chords for a beginner.",
        ],
    ),
    Story(
        "app-features",
        "lc_multi",
        "What features have I finished in the habit app so far?",
        [
            ["*u:the streak counter works!! it even handles missing a day without resetting to zero"],
            ["*u:morning reminder emails are live, a tiny cron job sends them at 7"],
            ["*u:shipped csv export tonight so people can take their data with them"],
        ],
        [
            "Habit apps with too many features are used less than simple ones.",
            "Finishing a feature means it works for someone other than you.",
        ],
    ),
    Story(
        "new-clients",
        "lc_multi",
        "which clients have I signed since I went freelance?",
        [
            ["*u:signed my first client!!! a small bakery chain wants a full rebrand, three shops"],
            [
                "*u:second client: the maritime museum needs their exhibition leaflets redone, small job but a nice name for the portfolio"
            ],
        ],
        [
            "Freelance clients come mostly through people who know your work.",
            "A client who signed once is the easiest client to sign again.",
        ],
    ),
    Story(
        "climb-injuries",
        "lc_multi",
        "What have I hurt climbing this year?",
        [
            ["*u:tweaked something in my ring finger on a crimp, it clicks when i bend it, ugh"],
            ["*u:rolled my ankle landing badly off the top of a yellow, walking like a pirate"],
            ["*u:and now a sore shoulder from a big dyno i had no business trying"],
        ],
        [
            "Climbers hurt themselves most when they are tired at the end of a session.",
            "Most climbing injuries this year or any year are to the fingers.",
        ],
    ),
    Story(
        "cars-driven",
        "lc_multi",
        "which cars did we test drive over the summer?",
        [
            ["*u:test drove a Skoda Fabia today, comfy but the boot is tiny for the pram"],
            ["*u:drove a Renault Zoe this morning, loved it, the range scares me a bit though"],
        ],
        [
            "Test driving cars in summer hides problems with the heating.",
            "Dealers let you test drive a car for longer if you ask on a weekday.",
        ],
    ),
    Story(
        "kitchen-trades",
        "lc_multi",
        "Who have we booked for the kitchen work so far?",
        [
            ["*u:booked the electrician, a guy called Sven, he comes on the 12th to move the sockets"],
            ["*u:plumber's sorted too, Ewa from the next street, she'll move the sink under the window"],
        ],
        [
            "Booking the kitchen work in the right order saves weeks.",
            "Tradespeople who are booked months ahead are usually good for a reason.",
        ],
    ),
    Story(
        "van-stops",
        "lc_multi",
        "where have we stayed so far on the van trip?",
        [
            ["*u:night one: a farm campsite near a lake, cows woke us up at 5"],
            ["*u:stayed two nights at a vineyard that lets vans park for free if you buy a bottle"],
            ["*u:tonight we're on a clifftop aire overlooking the sea, best view of the whole trip"],
        ],
        [
            "Staying in one place on a van trip for a few days makes it feel less rushed.",
            "Most van trips end with a long drive back to the rental depot.",
        ],
    ),
    # ---- a fact that changed: both sessions are gold
    Story(
        "crate-where",
        "lc_update",
        "where does the puppy sleep at night now?",
        [
            ["*u:for now the crate is right next to our bed so she can hear us breathing"],
            ["*u:we moved her crate down to the kitchen this week and she barely complained"],
        ],
        [
            "Puppies sleep better at night after a short play in the evening.",
            "Where a dog sleeps is a choice every household makes differently.",
        ],
    ),
    Story(
        "where-work",
        "lc_update",
        "where am I working these days?",
        [
            ["*u:decided to stay put at the insurer for now, the new team lead is actually decent"],
            ["*u:i handed in my notice!!! starting at Tandemly in february, a small team doing cycling route software"],
        ],
        [
            "Working from home these days is normal in most office jobs.",
            "People who change jobs every few years tend to earn more.",
        ],
    ),
    Story(
        "app-hosting",
        "lc_update",
        "Where is my habit app running now?",
        [
            ["*u:streakly is live on a 5 euro vps, deploys are just git pull and restart"],
            ["*u:moved streakly off the vps onto the pi at home, one less bill and it's plenty fast"],
        ],
        [
            "An app running on a server at home needs a way in from outside.",
            "Running an app for a few users costs almost nothing now.",
        ],
    ),
    Story(
        "baby-bedtime",
        "lc_update",
        "what time does the baby go to bed now?",
        [
            ["*u:she basically goes down whenever we do, like half ten, and we just bring her up"],
            ["*u:we've moved bedtime to 7 with a bath and a song, and she's actually asleep by half past"],
        ],
        [
            "A baby's bedtime often moves earlier once she drops a nap.",
            "Babies who go to bed later don't always sleep in later.",
        ],
    ),
    Story(
        "hob-choice",
        "lc_update",
        "are we having a gas hob or induction in the new kitchen?",
        [
            ["*u:we're keeping gas, the pipe is already there and i like cooking on a flame"],
            ["*u:changed our minds, induction it is, the fitter showed us one boiling water in 90 seconds"],
        ],
        [
            "A new kitchen is the cheapest moment to change the hob.",
            "Hobs with a flame and hobs without one need different pans.",
        ],
    ),
    Story(
        "day-rate-now",
        "lc_update",
        "What's my day rate at the moment?",
        [
            ["*u:i charge 350 a day, which i picked more or less out of thin air when i started"],
            ["*u:new rate is 420 a day from this month, two clients said yes without blinking"],
        ],
        [
            "Day rates at the moment are higher for work done at short notice.",
            "Most freelancers quote a day rate rather than an hourly one.",
        ],
    ),
]


# Days ago of each gold session, for the questions that say when (what the words mean on the day asked,
# early december: "over the summer" is june to august).
WHEN: dict[str, list[tuple[float, float]]] = {
    "app-name": [(60, 120)],  # "a few months ago"
    "climbing-gym": [(2, 6)],  # "the other day"
    "interview-place": [(4, 8)],  # "last week"
    "van-water": [(11, 17)],  # "a couple of weeks ago"
    "adblock-dns": [(20, 30)],  # "last month"
    "cars-driven": [(95, 185), (95, 185)],  # "over the summer"
}
