# ruff: noqa: E501  (sentences are kept one line each, as typed)
"""The second held-out long-session chat haystacks (issue 16, seventh session): new material, its own seed.

`bench/eval/longchat.py --heldout2` composes haystacks from this file exactly as it does from
`longchat_world.py` and `longchat_heldout.py` (both tuning sets now): 40 long sessions per haystack,
15-40 turns each, the facts stated once in passing inside sessions about other things, two lures per
story in other sessions. Every topic, sentence, slot filler, aside, follow-up and story here is new:
none is in either earlier set. It is written the way people type to a chatbot: lowercase, typos,
asides, follow-ups that quote the assistant. Some questions are requests that only a stated
preference answers, some share few words with their answer, and some carry a time word.

* `WHEN`: for a story whose question says when ("last month", "a couple of weeks ago"), the range of
  days ago each of its gold sessions is placed in (what the words mean on the day they are asked);
  every other gold session gets a random age, as in the earlier sets.

This file was written and committed alone, before it was first run (docs/eval.md); do not edit it to
move a figure, write another set.
"""

from __future__ import annotations

from bench.eval.longchat_world import Story, Topic

SEED = 7071201

SLOTS: dict[str, list[str]] = {
    "name": [
        "Agnes",
        "Benedikt",
        "Colm",
        "Dunja",
        "Eero",
        "Fatou",
        "Gwen",
        "Hamid",
        "Iris",
        "Joost",
        "Kirsi",
        "Leon",
        "Mirela",
        "Nikos",
        "Orla",
        "Piet",
        "Renske",
        "Stellan",
        "Tuva",
        "Ugo",
        "Valentina",
        "Wiebke",
        "Xavi",
        "Yannick",
        "Zofia",
        "Aurelio",
        "Bea",
        "Casimir",
        "Dagny",
        "Emil",
    ],
    "city": [
        "Aachen",
        "Bordeaux",
        "Cluj",
        "Delft",
        "Espoo",
        "Freiburg",
        "Gothenburg",
        "Haarlem",
        "Kaunas",
        "Leuven",
        "Montpellier",
        "Nijmegen",
        "Odense",
        "Plovdiv",
        "Regensburg",
        "Toulouse",
        "Trondheim",
        "Vigo",
        "Wexford",
        "Zadar",
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
    "home_network": Topic(
        user=[
            "my wifi drops every evening around 8, like clockwork. is that the neighbours or my router?",
            "whats the difference between a mesh system and just buying a second router",
            "the printer says offline AGAIN even tho it's literally next to the router",
            "How do I set up a separate network for guests without giving them my main password?",
            "is it worth running an ethernet cable to my desk or is that definately overkill",
            "{name} says I should change the DNS to make things faster, does that actually do anything?",
            "the back bedroom has basically no signal. the router is in the hallway by the front door",
            "can I limit how long the kids are online without buying some expensive app",
            "how often should i restart the router, is once a week a thing",
            "our contract says 500 mbit but speed tests show like 80. who do i complain to",
            "the smart tv forgets the wifi password every time theres a power cut",
            "do i need to replace my router? it's the one the provider gave us in like 2017",
            "my laptop connects to the wifi but says no internet, my phone is fine tho",
            "what's WPA3 and should i turn it on",
        ],
        assistant=[
            "Evening drops that come at the same time every day are often congestion on a crowded channel; try each of channels 1, 6 and 11 on the 2.4 GHz band and keep the quietest.",
            "A mesh system uses several units that hand your devices between them under one network name, which a second router set up on its own usually does not do smoothly.",
            "When a printer shows offline on wifi, giving it a fixed address in the router's settings stops it from vanishing whenever its lease renews.",
            "Most routers have a guest network switch in their settings; it gets its own name and password and keeps visitors away from your own devices.",
            "A cable to the desk is never overkill if you make video calls all day: it is faster, steadier and frees the wifi for everyone else.",
            "Changing the DNS server can make pages start loading a little quicker, but it will not raise your download speed.",
            "Wifi struggles through walls and floors, so a router tucked in a corner leaves the far rooms with little; a central, raised spot helps most.",
            "Many routers can pause a device's internet on a schedule, which covers bedtime limits without a paid app.",
            "You don't need to restart a healthy router on a schedule; if it only works after restarts, its firmware may need an update.",
            "Run the speed test over a cable, not wifi, before complaining to the provider, so they can't blame your wireless setup.",
            "Powerline adapters send the network through the house wiring and are a decent fallback where a cable is impossible.",
            "Write the router's admin password on a sticker under it; people lock themselves out more often than they get hacked.",
            "Older devices that only speak the 2.4 GHz band can slow down everyone on that band, so give them their own network name if you can.",
            "If a TV forgets the network after every power cut, a firmware update for the TV usually fixes it; re-entering the password is only a stopgap.",
            "Routers handed out by providers years ago often lack the newer wifi standards, so replacing one from before 2018 can make a real difference.",
            "Connected but no internet on one laptop while the phone works usually points at the laptop: forget the network, reconnect, and restart it.",
            "WPA3 is the newer, safer way of encrypting wifi; turn it on if all your devices support it, or use the mixed WPA2/WPA3 mode.",
            "Give the network a name that doesn't reveal your flat number or surname.",
            "A router's lights tell you a lot: a red or orange internet light means the problem is on the provider's side, not in your home.",
        ],
    ),
    "wedding_planning": Topic(
        user=[
            "ok wedding question. how do you cut a guest list down without offending half the family",
            "do we have to invite plus-ones for people who've only been dating a month?",
            "what's a normal deadline for RSVPs if the wedding is in {month}?",
            "my mum wants to invite her whole book club. we've never met most of them 😅",
            "kids or no kids at the wedding, what do people usually do",
            "how do i make a seating plan when two of the guests are divorced from each other",
            "is it rude to send the invites by email instead of on paper",
            "{name} hasn't replied to the invite and it's been {n} weeks. do I chase?",
            "how much should we budget per guest, roughly, for a sit down dinner",
            "my fiance wants a band, i want a DJ. who's right lol",
            "how far in advance do save the dates go out?",
            "should we do a gift list or just ask for money, asking for money feels tacky",
            "{name} offered to do our flowers as a gift. how do i say no without hurting her",
        ],
        assistant=[
            "A common way to trim a list is a rule that applies to everyone, such as only people both of you have met in the last two years; rules are easier to defend than names.",
            "Plus-ones are usually offered to married, engaged or long-term partners; a new relationship does not oblige you.",
            "Ask for replies about six to eight weeks before the day, which leaves time to chase stragglers and give the caterer final numbers.",
            "If parents contribute to the budget they often expect a say on the list; agreeing a number of places for each side avoids a fight over each name.",
            "An adults-only wedding is fine as long as the invitation says so clearly, by naming exactly who is invited.",
            "Seat divorced guests at separate tables with their own friends nearby, and never opposite each other at a long table.",
            "Email invitations are widely accepted now; a paper invite is still kind for older relatives who don't read email.",
            "A short, friendly message a week after the deadline is normal; most late replies are forgetfulness, not a snub.",
            "Per-head costs vary a lot by venue, so ask each caterer for a full price per guest including drinks and service before comparing them.",
            "Keep the guest list in one shared spreadsheet with columns for address, reply, meal choice and table, so nobody works from an old copy.",
            "Invite your second list only after the first replies come in, and keep the dates close enough that nobody notices.",
            "Put a meal choice on the reply card if the caterer needs numbers in advance; it saves phoning everyone later.",
            "Bands bring energy but cost more and need space; a DJ can play the exact songs you love, so it often comes down to budget and room size.",
            "Save-the-dates usually go out six to twelve months ahead, earlier for a wedding abroad or in a holiday season.",
            "Asking for contributions to a honeymoon or a house is common now; a short, warm line on the website makes it feel less awkward.",
            "Turn down an offer of help gently by thanking them for the thought and giving them a different, smaller role on the day.",
            "A timeline for the day, shared with the venue, the photographer and the best man, keeps everyone from asking you questions while you get ready.",
            "Leave about a tenth of the budget unplanned; something always costs more than the quote.",
        ],
    ),
    "neighbours": Topic(
        user=[
            "the guy upstairs plays bass until 1am on weeknights. what do i even say to him",
            "our neighbours hedge is growing over the fence and blocking the light in the garden. am I allowed to cut it?",
            "someone keeps parking across our driveway, pretty sure its the people at number {n}",
            "how do you complain to a neighbour without starting a war",
            "the dog next door barks the whole day when they're at work, I work from home and it's killing me",
            "we want to build a shed near the boundary, do we need to tell the neighbours first?",
            "is mediation a real option for neighbour stuff or is that only for divorces lol",
            "{name} from across the street put up a camera that points right into our kitchen. is that even legal?",
            "what time is it reasonable to start drilling on a {day}?",
            "the new people next door have a trampoline right against our fence and the kids scream all afternoon",
            "how do I ask the neighbours to keep their bins off the pavement without sounding like a busybody",
            "somebody in our building smokes on the balcony and it all comes into our bedroom",
            "our neighbour's tree dropped a branch on our car. who pays for that?",
        ],
        assistant=[
            "Start with a friendly, face-to-face word at a calm moment, not in the middle of the noise; most people simply don't realise how far sound carries.",
            "In many places you may trim branches that overhang your side up to the boundary, but you should offer the cuttings back and not harm the plant as a whole.",
            "Before anything else, write down dates and times; a short diary makes a later complaint to the council or landlord far more convincing.",
            "Leave a polite note with your name and number if you can't catch them; anonymous notes tend to start feuds.",
            "Dogs that bark all day alone are often bored or anxious, and owners are frequently unaware because it stops when they come home.",
            "Check local planning rules before building near a boundary; even when no permission is needed, telling the neighbours early saves bad feeling.",
            "Community mediation services exist in many towns for exactly these disputes, and they are often free.",
            "A home camera that films a neighbour's private space may break privacy rules; asking them to angle it away is the first step.",
            "Quiet hours are usually set by local rules or the building's house rules, often something like 10pm to 7am, and stricter on Sundays in some countries.",
            "Keep your own tone neutral in every message, since anything you write may later be shown to a landlord or mediator.",
            "If the noise comes through the floor, a rug and underlay on their side helps more than anything you can do on yours.",
            "Involve the landlord or building manager if you both rent; they have a contract with the neighbour and you do not.",
            "Noise from children playing during the day is generally considered normal, so a complaint about a trampoline rarely gets far.",
            "A bin on the pavement can often be raised with the council, but a cheerful word at the door usually works better.",
            "Smoke drifting from a balcony is hard to stop legally; asking the building manager to remind everyone of the house rules keeps it impersonal.",
            "If a neighbour's tree damages your car, their home insurance may pay if the tree was known to be unsafe; otherwise it is often your own insurance.",
            "Photos with dates are the best evidence for anything about hedges, fences or parking.",
            "It helps to assume good faith in the first conversation; people get defensive when they feel accused.",
        ],
    ),
    "home_brewing": Topic(
        user=[
            "trying kombucha at home for the first time, there's a wierd white film on top. mould??",
            "how warm does a beer kit need to be while it ferments? our flat is pretty cold in {month}",
            "do I really have to sanitise everything or is hot water enough",
            "my ginger beer exploded in the cupboard last night. like actually exploded. what happened",
            "can you reuse the yeast from one batch in the next one?",
            "{name} gave me a scoby in a jar, how long does it keep before I use it?",
            "whats the cheapest way to get started brewing beer, I don't want to spend a fortune on gear",
            "the airlock stopped bubbling after {n} days. is it done or stuck?",
            "how long do i have to wait before bottling cider",
            "what's a hydrometer and do i actually need one",
            "can i brew with the tap water here or do i need bottled",
            "my beer tastes kinda like green apples, is that normal",
            "{name} wants to try mead, is it harder than beer",
        ],
        assistant=[
            "A smooth, pale, even film on kombucha is usually a new scoby forming; fuzzy, dry spots that are green, black or blue are mould, and then the batch goes.",
            "Most ale yeasts like about 18 to 22 degrees; in a cold room, wrap the fermenter in a blanket or put it somewhere off the floor.",
            "Sanitising matters more than cleaning in brewing: wild bacteria love the same sugar your yeast does, and hot tap water doesn't kill them.",
            "Bottles explode when fermentation carries on in a sealed bottle; too much sugar at bottling or bottling too early builds the pressure.",
            "Yeast can be harvested from the bottom of the fermenter and reused a few times if it is kept cold and clean.",
            "A scoby in some of its own liquid keeps for weeks at room temperature with a cloth over the jar; don't put it in the fridge.",
            "A fermenting bucket, an airlock, a hydrometer and a bottling wand are all the gear you need for the first batches.",
            "An airlock is a poor guide; take two hydrometer readings a couple of days apart, and if they match, fermentation is done.",
            "Cider is usually ready to bottle after two to four weeks, once the gravity has stopped dropping.",
            "Keep a notebook of every batch, with dates, temperatures and readings; it's the only way to repeat a good one.",
            "Plastic bottles are safer for first tries at fizzy drinks because you can squeeze them to feel the pressure.",
            "Brewing sugar and table sugar both work for priming; what matters is measuring it, not which one you use.",
            "A hydrometer measures how much sugar is left, which tells you when fermentation is done and how strong the beer is; it is worth the few euros.",
            "Most tap water is fine for brewing, but if it smells of chlorine, leave it standing overnight or use a campden tablet.",
            "A green apple taste in young beer usually fades if you leave it on the yeast a few more days before bottling.",
            "Mead is simple to make but slow: it often needs months before it tastes good.",
            "Label every bottle with the date and the batch; after a few months they all look the same.",
            "Store bottled beer upright so the yeast settles at the bottom and not along the side.",
        ],
    ),
    "aquarium": Topic(
        user=[
            "what fish are good for a complete beginner, nothing that dies if i look at it wrong",
            "the water went cloudy two days after I cleaned the tank, what did i do wrong",
            "how many neon tetras can go in a normal sized tank",
            "there's green algae all over the glass and the plants. too much light?",
            "my betta keeps flaring at his own reflection, is he stressed",
            "how often should i change the water and how much of it",
            "{name}'s kids want to feed the fish every time they visit. can you overfeed fish?",
            "is tap water ok or do i need special water",
            "one of the guppies is hiding in the corner and not eating",
            "do i need a heater for tropical fish if the flat is always warm",
            "the filter is so loud at night, can i turn it off while we sleep?",
            "there are tiny white worms on the glass, should i panic",
            "what do i do with the fish when we go away for {n} days",
        ],
        assistant=[
            "Hardy beginner fish include zebra danios, platies and white cloud minnows; they forgive small mistakes with the water.",
            "A cloudy tank after a big clean is often a bacterial bloom; it clears by itself in a few days if you don't keep scrubbing the filter.",
            "Never rinse the filter sponge under the tap: the chlorine kills the good bacteria; swish it in a bucket of old tank water instead.",
            "Neon tetras are happiest in groups of at least six, and add them a few at a time so the filter keeps up.",
            "Algae usually means too much light or too many nutrients; try keeping the light on for eight hours a day on a timer.",
            "Bettas flare at reflections when the room is brighter than the tank; a background on the back glass usually ends it.",
            "Changing about a quarter of the water every week keeps things steadier than a big change once a month.",
            "Overfeeding is the most common beginner mistake: give only what the fish eat in two minutes, and skip a day each week.",
            "Tap water is fine once you treat it with a water conditioner that removes chlorine and chloramine.",
            "A fish that hides and stops eating may be sick or bullied; check the water with a test kit before anything else.",
            "Test kits with liquid drops are more accurate than strips for ammonia, nitrite and nitrate.",
            "Live plants compete with algae for nutrients, so a well-planted tank tends to stay cleaner.",
            "Tropical fish need a steady 24 to 26 degrees; a small heater with a thermostat is safer than trusting the room.",
            "Switching off the filter at night lets the good bacteria suffocate; a filter that's too loud usually needs cleaning or a new impeller.",
            "Tiny white worms on the glass are often harmless planaria or detritus worms, a sign of too much food rather than a disaster.",
            "Healthy adult fish can go a week without food; an automatic feeder is riskier than not feeding.",
            "Quarantine new fish in a bucket or small tank for a couple of weeks if you can, so they don't bring disease into the main tank.",
            "Keep the tank out of direct sunlight, which heats the water and feeds the algae.",
        ],
    ),
    "bike_repair": Topic(
        user=[
            "got a flat on the way to work AGAIN. how do people fix a puncture on the side of the road",
            "my chain makes a grinding noise when i change gear, any idea?",
            "the back brake squeaks like crazy when its wet",
            "How often should a bike actually get a service?",
            "{name} gave me her old road bike, what should i check before riding it",
            "what pressure should the tyres be on a hybrid",
            "the gears skip under load going up hills, is the chain worn out?",
            "is it worth buying a pump with a gauge or is squeezing the tyre good enough",
            "I want to start cycling to work in {month}. what do i need to be able to fix myself?",
            "my saddle keeps slipping down no matter how tight i do the bolt",
            "the front wheel wobbles a bit when I spin it, is that dangerous",
            "what's the least annoying way to carry a laptop on a bike",
            "is it worth converting my old bike to an e-bike or just buying one",
        ],
        assistant=[
            "For a roadside puncture, carry a spare tube, two tyre levers and a mini pump; swapping the tube is quicker than patching in the rain.",
            "Before fitting a new tube, run your fingers carefully around the inside of the tyre to find the thorn or glass that caused the flat.",
            "Grinding on a gear change usually means the derailleur needs a small turn of the barrel adjuster, or the chain is dry.",
            "Wet brakes squeal because of grit on the rim or pad; cleaning both with a rag and a little rubbing alcohol often cures it.",
            "A basic service once a year is enough for most commuters, more often if you ride every day through winter.",
            "On an old bike check the tyres for cracks, the brake pads for wear and whether the chain turns freely before the first ride.",
            "The pressure range is printed on the side of the tyre; hybrid tyres usually sit somewhere between 4 and 6 bar.",
            "Skipping under load often means a worn chain; a cheap chain checker tool tells you in seconds whether it has stretched.",
            "A pump with a gauge pays for itself, because tyres feel hard long before they reach the right pressure.",
            "Learning to fix a flat, adjust the brakes and oil the chain covers most of what goes wrong on a commute.",
            "Oil the chain after a wet ride and wipe off the excess, since extra oil only collects dirt.",
            "A good lock is worth about a tenth of the bike's price; lock the frame, not just the wheel.",
            "A saddle that slips even with a tight bolt often needs a little carbon grip paste on the seat post, or the clamp is the wrong size.",
            "A slight wobble in a wheel is common, but if the rim rubs the brake pads it needs truing by a shop.",
            "Panniers on a rack are the least sweaty way to carry a laptop, as long as it sits in a padded sleeve.",
            "Conversion kits make an old bike electric for less money, but only if the frame and brakes are up to the extra speed and weight.",
            "Check that the quick-release levers are closed firmly before every ride; a loose wheel is the most dangerous thing a bike can do.",
            "Bright lights front and back matter more in town than reflective clothing.",
        ],
    ),
    "skincare": Topic(
        user=[
            "do i really need sunscreen in winter or is that a marketing thing",
            "my skin gets super dry and flaky around my nose every winter",
            "what order are you supposed to put the stuff on in, serum then cream or the other way round",
            "{name} recommended retinol for fine lines. is it safe to start at my age?",
            "i keep breaking out on my chin before my period, anything that helps",
            "is expensive moisturiser actually better than the supermarket one",
            "how do I know if a product is making my skin worse or if it's just purging",
            "my hands crack open in the cold and it hurts to wash them",
            "is it bad to sleep with makeup on once in a while",
            "my lips crack every winter no matter how much balm i use",
            "do those jade rollers actually do anything or is it just instagram",
            "whats the deal with vitamin c serum, everyone's talking about it",
            "my partner's skin is super oily, does he need moisturiser too?",
        ],
        assistant=[
            "UV rays that age the skin get through clouds and windows all year, so a daily SPF 30 is worth it even in winter.",
            "Dry patches around the nose often improve with a gentle cleanser and a thicker cream at night; hot water makes them worse.",
            "The usual rule is thinnest to thickest: cleanser, then serum, then moisturiser, then sunscreen in the morning.",
            "Retinol is widely used from the late twenties on; start with a low strength and always wear sunscreen the next day.",
            "Breakouts on the chin that follow your cycle are often hormonal; a gentle product with salicylic acid can help, and a doctor can suggest more.",
            "Price says little about a moisturiser; a simple cream from the supermarket often does the same job.",
            "Purging from an active ingredient shows up where you usually break out and settles within a few weeks; new spots in new places suggest the product does not suit you.",
            "For cracked hands, a thick cream after every wash and cotton gloves over a heavy layer at night help heal the splits.",
            "One night with makeup won't ruin your skin, but it can clog pores; a quick wipe with micellar water is better than nothing.",
            "Introduce one new product at a time and wait two weeks, otherwise you can't tell which one caused a reaction.",
            "Patch test a new product on the inside of your arm for a couple of days before putting it on your face.",
            "Lukewarm water and a soft towel, patted rather than rubbed, are kinder to the skin than any serum.",
            "Lips crack when balm only sits on top; a thick ointment at night and a scarf over the mouth outside help more than constant reapplying.",
            "Facial rollers can reduce puffiness for a little while, but they don't change the skin in the long run.",
            "Vitamin C serums can even out the tone and protect against some sun damage, but they go off quickly once opened, so buy small bottles.",
            "Oily skin still needs moisture; a light gel moisturiser keeps it from producing even more oil.",
            "Sunscreen needs about two finger lengths for the face and neck; most people use far less than that.",
            "Changing the pillowcase twice a week helps more with spots than many products.",
        ],
    ),
    "drawing": Topic(
        user=[
            "I want to learn to draw as an adult. where do i even start, i can barely draw a stick man",
            "my perspective always looks off",
            "what pencils do i actually need, the art shop had like forty",
            "how do you draw hands without them looking like bunches of bananas",
            "is it cheating to trace photos when you're learning",
            "{name} and I want to try drawing outside in {city}. any tips?",
            "my drawings look flat, how do people make things look 3D",
            "should i get an ipad for drawing or stick with paper for now",
            "how long does it take before you get decent at drawing, honestly",
            "i get bored drawing fruit, what can i draw that's more fun",
            "how do i stop smudging with my hand when i shade",
            "{name} gave me a set of charcoal, how is that different from pencil",
            "what's gesture drawing, my teacher keeps going on about it",
        ],
        assistant=[
            "Start with short daily sessions of simple objects on the kitchen table: a mug, an apple, a shoe; ten minutes a day beats one long weekend.",
            "For perspective, mark the horizon line at your eye level first, then let all the parallel edges run towards the same vanishing point on it.",
            "A 2B and a 6B pencil, a kneaded eraser and a cheap sketchbook are plenty to start with.",
            "Draw hands as simple boxes and cylinders first, then add the fingers as jointed tubes; your own hand is a model that never gets tired.",
            "Tracing can help you understand shapes, but drawing from life trains your eye in a way tracing does not.",
            "Outdoors, choose a spot where you can sit, draw for twenty minutes, and don't try to fit the whole street on the page.",
            "Things look solid when you shade them from one light source: a light side, a shadow side and a cast shadow on the ground.",
            "Stay with paper until drawing is a habit; a tablet is a big expense for something you might drop after a month.",
            "Most people see clear progress after a few months of regular practice; keep your first sketchbook so you can compare.",
            "Squint at your subject to see the big shapes of light and dark instead of all the small details.",
            "Blind contour drawing, where you look only at the object and not the page, is a strange but effective warm-up.",
            "A pen instead of a pencil forces you to commit to lines, which many beginners find freeing.",
            "When fruit gets boring, draw people in cafés, your own shoes or the view from your window; what interests you is easiest to practise.",
            "Put a scrap of paper under your drawing hand when you shade, and work from the top of the page down if you are right-handed.",
            "Charcoal is softer and darker than pencil, and great for big shapes of light and shadow, but it smudges if you don't fix it.",
            "Gesture drawing means sketching a pose in thirty seconds to catch its movement, before any detail.",
            "Copying the drawings of artists you like is an old and respectable way of learning.",
            "Turn your drawing upside down or look at it in a mirror; mistakes in proportion jump out.",
        ],
    ),
    "podcasting": Topic(
        user=[
            "me and {name} want to start a podcast about football. what mic should we get on a small budget",
            "the audio sounds echoey like we're in a bathroom. we record in the living room",
            "how long should episodes be? ours keep running to two hours",
            "what free software do people use to edit podcasts",
            "we recorded over zoom and my co-host's voice keeps cutting out, can that be fixed after",
            "where do you upload a podcast so it shows up on spotify and apple",
            "is it worth doing video too or is audio enough",
            "how do small podcasts get their first hundred listeners",
            "do we need permission to use a song in the intro",
            "do we need to write a script or can we just talk",
            "how do we stop talking over each other, it sounds like chaos",
            "is it worth getting a mixer or is that just for pros",
            "what do people put in show notes",
        ],
        assistant=[
            "A dynamic USB microphone is a good first buy for two people in a normal room, because it picks up less of the room than a condenser.",
            "Echo comes from hard surfaces; record in a room with soft furnishings, hang a duvet behind you or even record in a wardrobe full of clothes.",
            "An episode should be as long as it stays interesting; for a chat show many listeners prefer 30 to 60 minutes.",
            "Audacity is free and covers cutting, levelling and noise reduction; many podcasters start there.",
            "Dropouts in an online call are hard to repair later, so ask each person to record their own microphone locally as a backup.",
            "A podcast host stores your audio files and gives you an RSS feed, which you submit once to Spotify and Apple Podcasts.",
            "Video helps on YouTube, but it doubles the editing; start with audio and add video once the routine works.",
            "Your first listeners usually come from people you know and from guesting on other small shows in the same niche.",
            "Commercial songs need a licence even for a few seconds; royalty-free music libraries are the safe choice for intros.",
            "Keep the microphone a hand's width from your mouth and talk across it, not straight into it, to soften the pops.",
            "Record a minute of silence in the room before starting; noise reduction tools use it to learn what to remove.",
            "A steady rhythm of releases matters more for growth than the exact length of each episode.",
            "Most chat shows work from a loose outline of three or four points rather than a full script, so it still sounds like talk.",
            "Talking over each other is easier to avoid with a hand signal for 'I want to come in', and by recording in the same room.",
            "A mixer is not needed for two microphones; a small USB audio interface does the same job more simply.",
            "Show notes usually hold a short summary, the guests' names and links to anything mentioned.",
            "Edit out long pauses and ums, but not every one; a little of it keeps the conversation natural.",
            "Ask listeners one question at the end of each episode; replies give you material for the next one.",
        ],
    ),
    "parent_care": Topic(
        user=[
            "my dad is getting forgetful, keeps leaving the stove on. how do you even bring up memory problems with a parent",
            "what's the difference between a care home and assisted living?",
            "mum takes {n} different pills a day and gets them mixed up. is there a system that works",
            "how do i get my dad to accept help at home, he's very proud",
            "my sister does nothing for mum and i'm exhausted. how do siblings split this stuff",
            "we're thinking of moving grandma in with us. what should we think about first",
            "is it normal to feel guilty about considering a care home",
            "what should I look out for when we visit a care home in {city} on {day}",
            "dad slipped in the bathroom, nothing broken, but it scared all of us",
            "mum keeps giving money to phone scammers, how do i protect her without treating her like a child",
            "is it worth getting one of those emergency buttons you wear round the neck",
            "how do we find out if dad is entitled to any financial help for care",
            "mum refuses to stop driving and honestly it terrifies me",
        ],
        assistant=[
            "Raise memory worries gently and about specific moments, such as the stove, and suggest a check-up as routine rather than as a verdict.",
            "Assisted living gives people their own flat with help on hand, while a care home provides round-the-clock personal and often nursing care.",
            "A weekly pill organiser with compartments for morning, noon and evening, filled by one person, prevents most mix-ups; pharmacies can also prepare blister packs.",
            "Proud parents often accept help more easily when it is framed as making your life easier, not theirs.",
            "Siblings do better with a clear split of tasks that fits each person's distance and strengths, such as one handling money and another the visits.",
            "Before moving a grandparent in, think about stairs, a bathroom on the same floor, and how much privacy everyone will still have.",
            "Guilt is very common among carers; choosing good care is a way of looking after someone, not abandoning them.",
            "On a visit, notice whether residents are up and doing things or sitting in front of a television, and how staff speak to them.",
            "A non-slip mat and a night light on the way to the bathroom prevent many falls at night.",
            "Ask the doctor for a carer's assessment; it can open up support and respite you may not know you're entitled to.",
            "A shared calendar for appointments and visits keeps everyone in the family on the same page.",
            "Memory clinics can tell ordinary ageing from early dementia, and an early diagnosis gives more time to plan.",
            "Scammers often target older people on the phone; a call-blocking device and a rule that nobody asks for money by phone protect many parents.",
            "Personal alarm buttons worn on the wrist or neck call for help after a fall and give families a lot of peace of mind.",
            "The local council and the doctor can tell you what financial support for care a parent is entitled to.",
            "When driving becomes unsafe, a doctor's or an assessor's opinion often lands better than a family's worry.",
            "Keep a folder with your parent's medication list, doctors and important papers, so anyone can step in quickly.",
            "Looking after yourself is part of looking after a parent; carers who never rest burn out.",
        ],
    ),
    "dating": Topic(
        user=[
            "back on the apps after {n} years, everything is so different. how do people write a bio",
            "he texted for two weeks then suggested we meet at his place first. red flag right?",
            "whats a good first date that isn't just drinks",
            "how soon is too soon to say you're not feeling it?",
            "i always freeze when they ask what I do for fun",
            "{name} wants to set me up with her coworker. do blind dates ever work?",
            "should I mention on the first date that i have a kid",
            "how do you tell someone nicely you don't want a second date",
            "is it weird to go on a date on a {day} morning? my evenings are full",
            "how many photos should I put on my profile and which ones",
            "we had a great first date and now he's taking a day to text back. normal?",
            "how do i stop comparing everyone to my ex",
            "is splitting the bill on a first date still a thing or is that awkward now",
        ],
        assistant=[
            "A good bio gives one or two specific details people can ask about, like the last book you loved or a dish you're proud of, rather than a list of adjectives.",
            "Meeting in a public place the first time is the usual safety advice, and someone who respects you won't mind.",
            "Activity dates like a market, a walk or a museum give you something to talk about and an easy way to end it.",
            "You can say you don't feel a spark whenever you know; a kind, clear message is better than slowly fading away.",
            "Have two or three small things ready that you honestly enjoy, even if it's cooking on Sundays or long walks with a podcast.",
            "Set-ups by friends work surprisingly often, because someone who knows you both has already done some filtering.",
            "Many single parents mention children early, often in the profile itself, so nobody feels misled later.",
            "A short thank-you plus a clear line, such as 'I enjoyed meeting you but I don't think we're a match', is kind and final.",
            "Morning coffee dates are common and have the advantage of a natural end when the day starts.",
            "Video calling before meeting saves time, and it is a quick check that the person matches their photos.",
            "Tell a friend where you're going and when you expect to be home, just as a routine.",
            "It's fine to take breaks from the apps; dating fatigue is real and makes every match feel worse than it is.",
            "Four to six photos is enough: a clear face shot first, one of your whole body, and a couple that show what you like doing.",
            "A day before a text after a good date is normal; many people wait to avoid seeming too keen.",
            "Comparing new people to an ex is common after a long relationship; it usually means you need a little more time, not that nobody is right.",
            "Offering to split the bill on a first date is normal now, and so is taking turns.",
            "First dates go better when they are short; you can always extend a good one.",
            "Keep your messages before the first date light; the real conversation happens in person.",
        ],
    ),
    "pottery": Topic(
        user=[
            "everything I make on the wheel collapses after a minute, it's so frustrating",
            "what's the difference between stoneware and earthenware clay?",
            "my mug cracked in the kiln, the teacher said it dried too fast. how do i stop that",
            "can you make pottery at home without a kiln",
            "the glaze came out totally different from the sample tile, like brown instead of blue",
            "{name} wants a set of bowls for her birthday. how many should i throw to end up with four good ones lol",
            "why does my clay keep wobbling when I try to center it",
            "is handmade pottery actually safe to eat from",
            "how long does a piece need to dry before the first firing",
            "the bottom of my pots is always way too thick",
            "what's bisque firing vs glaze firing",
            "my handles keep falling off mugs after firing",
            "is a pottery wheel for home worth it or is it a waste of money",
        ],
        assistant=[
            "Walls collapse on the wheel when they get too thin or too wet; use less water and stop to let the clay stiffen for a few minutes.",
            "Earthenware fires at lower temperatures and stays a bit porous, while stoneware fires hotter and comes out dense and sturdy.",
            "Cracks from drying come from uneven drying; cover a piece loosely with plastic so handles and rims dry at the same pace as the body.",
            "Air-dry clay lets you make pottery without a kiln, but it isn't waterproof and is for decoration, not for food.",
            "Glazes change with the kiln temperature, the thickness of the coat and the clay underneath, so a sample tile is only a rough guide.",
            "Beginners often throw about twice as many pieces as they need, because a few always crack, warp or come out uneven.",
            "Centering goes better with your elbows braced against your legs, steady pressure and a fast wheel.",
            "Pottery is food safe when it's fired with a glaze that is labelled food safe at the right temperature.",
            "A piece should be bone dry before its first firing, which can take a week or more; it should no longer feel cool against your cheek.",
            "Wedging the clay before throwing pushes out air bubbles that can make a pot burst in the kiln.",
            "Trimming the base when the pot is leather hard gives it a neat foot and takes off extra weight.",
            "Keep a little pot of slip, clay mixed with water, to glue handles on and fill small cracks.",
            "A base that's too thick comes from not opening the clay deep enough; push a needle tool through the centre to check the thickness.",
            "The first, bisque firing hardens the clay so it can be glazed; the second, glaze firing melts the glaze into a glassy coat.",
            "Handles come off when the mug and the handle are at different dryness; score both surfaces and join them with slip.",
            "A home wheel pays off only if you'll throw every week and have somewhere to fire your pieces.",
            "Throwing the same shape many times builds the muscle memory faster than trying something new each time.",
            "Always wipe the kiln shelves clean of glaze drips before loading them.",
        ],
    ),
    "espresso": Topic(
        user=[
            "my espresso is super sour and runs through in like 10 seconds. what am I doing wrong",
            "do i need a seperate grinder or is pre-ground fine for an espresso machine",
            "how often do I have to descale the machine, the light keeps coming on",
            "can't get the milk to foam properly for a flat white, it's all big bubbles",
            "{name} says oat milk doesn't foam, is that true?",
            "what's a good dose for a double shot",
            "the coffee tastes bitter and burnt even with fresh beans",
            "how long do coffee beans stay fresh once the bag is open",
            "is it worth upgrading from my cheap machine or is it all about the grinder",
            "what's the difference between a latte and a flat white honestly",
            "my machine makes a weird grinding sound and then no water comes out",
            "can i use normal supermarket beans or does it need to be espresso roast",
            "how do people do latte art, mine looks like a blob",
        ],
        assistant=[
            "A sour shot that runs very fast is under-extracted; grind finer until a double takes about 25 to 30 seconds.",
            "Freshly ground coffee makes the biggest difference to espresso, and pre-ground coffee is rarely ground fine enough for it.",
            "Descale every one to three months depending on how hard your water is; filtered water makes it less frequent.",
            "For silky milk, keep the steam wand tip just under the surface for a few seconds to add air, then lower it to swirl the milk.",
            "Barista versions of oat milk are made to foam and steam almost as well as cow's milk; the plain cartons often don't.",
            "A double shot usually starts from around 18 grams of ground coffee, giving about 36 grams of espresso in the cup.",
            "Bitter, burnt flavours often come from over-extraction or a dirty machine; try a coarser grind and backflush the group head.",
            "Beans taste best from about a week to a month after roasting; keep them in an airtight container away from light.",
            "A good grinder improves every cup more than a better machine; upgrade the grinder first.",
            "Weigh the coffee and the shot with cheap kitchen scales; guessing is why shots vary from day to day.",
            "Warm the cup and run a little hot water through the group before pulling a shot, so the first one isn't cold and thin.",
            "Tamp level and firmly, but the exact pressure matters much less than grinding and dosing the same way each time.",
            "A latte has more milk and a thicker layer of foam, while a flat white is smaller, stronger and has thin, silky milk.",
            "A grinding sound with no water usually means the pump is pulling air; check the water tank is seated properly and run the steam wand to prime it.",
            "Any fresh beans can make espresso; an espresso roast is just a darker roast that is easier to get right.",
            "Latte art starts with glossy milk without big bubbles; pour from high up first, then bring the jug close to draw the shape.",
            "Clean the steam wand with a damp cloth right after every use, before the milk dries on it.",
            "A water filter or bottled water with low hardness protects the machine from limescale.",
        ],
    ),
    "japan_trip": Topic(
        user=[
            "planning 2 weeks in japan in {month}, is tokyo kyoto osaka too cliche or is that the right first trip",
            "first time staying in a ryokan, what do i need to know so i don't embarrass myself",
            "how much cash should I carry, I heard a lot of places don't take cards",
            "{name} says I have to do a day trip to nara. is it worth it with only {n} days in kyoto?",
            "what's the etiquette with tipping in japan",
            "can i get by with only english in the countryside",
            "any tips for jet lag on the way to tokyo, flying from {city}",
            "how do people get their luggage between cities, i don't want to drag a suitcase on the trains",
            "is it ok to eat while walking around in tokyo or is that rude",
            "do i need a visa for japan as a tourist from the EU",
            "whats the best way to have internet there, pocket wifi or an esim",
            "is kyoto really that crowded in {month}? people keep warning me",
            "what should i bring as a gift for the family we're visiting in nagoya",
        ],
        assistant=[
            "Tokyo, Kyoto and Osaka is the classic first route for good reason: it mixes a huge city, temples and food without long travel days.",
            "In a ryokan you take off your shoes at the entrance, wear the yukata they give you, and wash fully before getting into the shared bath.",
            "Cards work in most cities now, but small restaurants, temples and rural places may be cash only, so carry some yen.",
            "Nara is an easy half-day trip from Kyoto by train, with the deer park and the great Buddha hall close together.",
            "Tipping isn't part of the culture in Japan and can cause confusion; good service is simply expected.",
            "In the countryside fewer people speak English, but a translation app and pointing at menus get you a long way.",
            "Set your watch to Tokyo time on the plane and try to stay awake until the local evening on the first day.",
            "Luggage forwarding services deliver your suitcase to the next hotel, usually the following day, for a modest fee.",
            "Get a rechargeable transit card on your phone or as a card; it works on most trains, buses and in convenience stores.",
            "Book popular places like the Ghibli Museum or teamLab weeks in advance, since they sell out.",
            "Convenience stores in Japan are a real lifesaver for cheap breakfast, cash machines and printing tickets.",
            "Eating while walking is frowned on in many places; people usually stand by the stall or the vending machine to finish.",
            "Citizens of many European countries can visit Japan for up to ninety days without a visa; check the current rules before booking.",
            "An eSIM is the easiest way to stay online; pocket wifi suits groups who want to share one connection.",
            "Kyoto's famous temples are very busy in spring and autumn; go at opening time or visit the smaller temples in the afternoon.",
            "A small gift from your home town, nicely wrapped, is the classic present when visiting a family in Japan.",
            "Shoes come off in homes, some restaurants and temple halls, so wear socks without holes.",
            "Trains in Japan are very quiet; people avoid phone calls on board.",
        ],
    ),
}


USER_ASIDES = [
    "lol ok",
    "wait thats actually genius",
    "ok cool ty",
    "hmm idk, sounds complicated",
    "sorry typing on my phone, autocorrect is killing me",
    "can you make that shorter pls",
    "brb, kettle's boiling",
    "ok and if i only have like 10 minutes?",
    "yeah {name} told me the same thing on {day}",
    "haha fair",
    "thats more or less what i expected tbh",
    "nah that wont work for me",
    "ok ok. next question",
    "sorry, ignore the typos",
]
ASSISTANT_ASIDES = [
    "Good question.",
    "Totally understandable.",
    "Here's what I'd do.",
    "Short version first, details after.",
    "That happens to a lot of people.",
    "No worries, take your time.",
    "Let's sort that out.",
    "A couple of things to check.",
    "That's a fair concern.",
    "You're on the right track.",
]
FOLLOW_UPS = [
    "wait, '{}'? since when",
    "ok but '{}', does that still work if im on a budget?",
    "you said '{}', can you explain that like im five",
    "sorry what do you mean '{}'",
    "'{}' hm. my friend said the opposite",
    "re '{}': how do i actually do that",
    "'{}'?? ok that's news to me",
    "going back to '{}' for a sec, is that really necessary",
    "so '{}'... and if that doesn't fix it?",
]
RELATIONS = [
    "My flatmate's girlfriend",
    "My yoga teacher",
    "My old boss",
    "My cousin's husband",
    "The woman who runs the bakery downstairs,",
    "My sister's best friend",
    "Our landlord",
    "My climbing buddy",
    "My brother",
    "A guy from work,",
    "My goddaughter",
    "My mum's neighbour",
]
EVENTS = [
    "just ran his first triathlon in {city}",
    "is moving to {city} for a PhD",
    "got a job at a zoo",
    "is getting divorced, which nobody saw coming",
    "adopted two guinea pigs",
    "finally finished her novel",
    "is walking from {city} to the sea",
    "bought a flat in {city}",
    "had a little girl in {month}",
    "started a food truck",
    "is taking a sabbatical in {month}",
    "won the office bake-off",
    "got her motorbike licence",
    "joined a rowing club",
    "is retiring in {month}",
    "got stuck in {city} when the flights were cancelled",
    "is restoring an old sailing dinghy",
    "turned forty on {day}",
    "started night shifts at the hospital",
    "shaved his head for charity",
]


STORIES: list[Story] = [
    # ---- a fact the person stated once, in passing (single session)
    Story(
        "router-spot",
        "lc_user",
        "where did I end up putting the router?",
        [
            [
                "*u:ok so i moved the router off the hallway floor and it now sits on top of the bookcase in the living room, the back bedroom gets three bars now"
            ]
        ],
        [
            "Routers work best up high and in the open, rather than on the floor behind a door.",
            "Putting a router inside a cupboard can halve its range.",
        ],
    ),
    Story(
        "officiant",
        "lc_user",
        "Who is going to marry us?",
        [
            [
                "*u:big news, my uncle Rainer got ordained online so he can do the ceremony for us, he's already practising his jokes"
            ]
        ],
        [
            "Couples who marry in a church usually meet the priest a few times first.",
            "Having a friend marry you is lovely, but check what makes it legal where you live.",
        ],
    ),
    Story(
        "betta-name",
        "lc_user",
        "what did we call the betta?",
        [["*u:the betta finaly has a name, my son picked Captain Noodle, don't ask"]],
        [
            "A betta should live alone, since males fight each other.",
            "Some people call their fish after cartoon characters, which kids love.",
        ],
    ),
    Story(
        "commuter-bike",
        "lc_user",
        "What kind of bike do I ride to work?",
        [
            [
                "*u:my commuter bike is an old steel Raleigh from the 80s that I bought for 60 quid off a student, it weighs a ton but it never breaks"
            ]
        ],
        [
            "Riding to work is easier on a bike with mudguards and a rack.",
            "A bike for work should be comfortable before it is fast.",
        ],
    ),
    Story(
        "bass-neighbour",
        "lc_user",
        "what's the name of the neighbour with the loud music?",
        [
            [
                "*u:fyi the bass guy upstairs is called Dries, we finally talked in the stairwell and he seems nice enough actually"
            ]
        ],
        [
            "Loud music from a neighbour is the most common complaint councils get.",
            "A neighbour who plays music late may simply not know how thin the walls are.",
        ],
    ),
    Story(
        "pottery-studio",
        "lc_user",
        "where's the pottery class I signed up for a few weeks ago?",
        [
            [
                "*u:signed up for pottery!! the wheel class is at the Klei studio on Havenstraat, thursday evenings, the whole place smells like wet earth"
            ]
        ],
        [
            "Pottery classes fill up quickly in autumn, so people sign up early.",
            "Bring an old towel and short nails to a pottery class.",
        ],
    ),
    Story(
        "memory-clinic",
        "lc_user",
        "What did the memory clinic tell us about my father?",
        [
            [
                "*u:memory clinic results are in: dad has mild cognitive impairment, not dementia, at least not yet. they want to see him again in a year"
            ]
        ],
        [
            "Memory clinics often have long waiting lists, so ask the doctor for a referral early.",
            "Going with your father to the appointment helps him remember what was said.",
        ],
    ),
    Story(
        "podcast-name",
        "lc_user",
        "what's our podcast called?",
        [["*u:we settled on a name for the show btw, Offside Trap, my co-host came up with it in the pub"]],
        [
            "A podcast name should be easy to spell after hearing it once.",
            "Podcasts named after inside jokes are hard to find in search.",
        ],
    ),
    Story(
        "espresso-machine",
        "lc_user",
        "what coffee machine did I tell you I bought a few months ago?",
        [["*u:caved and bought a Gaggia Classic second hand, 150 euros, the seller threw in a tamper and a milk jug"]],
        [
            "A coffee machine bought second hand should be descaled before you use it.",
            "Most coffee machines sold in supermarkets can't make real espresso.",
        ],
    ),
    Story(
        "japan-dates",
        "lc_user",
        "When am I flying to Japan?",
        [["*u:flights are booked!!! leaving on the 14th of april, back on the 29th, still can't believe it"]],
        [
            "Flying to Japan from Europe takes around fourteen hours.",
            "Japan gets very crowded when the cherry trees flower.",
        ],
    ),
    Story(
        "tank-size",
        "lc_user",
        "How big is my fish tank?",
        [["*u:the tank is 54 litres, a Juwel one that was on offer, it just about fits on the dresser"]],
        [
            "A big fish tank is easier to keep stable than a small one.",
            "Fish tanks get heavy: every litre of water weighs a kilo.",
        ],
    ),
    Story(
        "dating-app",
        "lc_user",
        "which dating app did I sign up for?",
        [["*u:ok i did it, back on the apps: made a Hinge profile last night, my sister wrote half the prompts"]],
        [
            "Dating apps all work slightly differently, and some only let women write first.",
            "Signing up for a dating app after a breakup can feel strange.",
        ],
    ),
    Story(
        "skin-type",
        "lc_user",
        "What skin type did the dermatologist say I have?",
        [
            [
                "*u:saw a dermatologist finally and apparently I have combination skin with rosacea on my cheeks, which explains a LOT"
            ]
        ],
        [
            "A dermatologist can usually tell your skin type in a single visit.",
            "Skin type changes with age and even with the seasons.",
        ],
    ),
    Story(
        "first-brew",
        "lc_user",
        "what did I say I was brewing a couple of weeks ago?",
        [["*u:first brew is in the bucket!! a hefeweizen from a kit, the kitchen smells like bananas already"]],
        [
            "Brewing at home takes patience, most beers need a few weeks.",
            "Home brewing clubs often lend out equipment to beginners.",
        ],
    ),
    Story(
        "sketch-group",
        "lc_user",
        "who runs the sketch group I joined?",
        [["*u:the drawing group is led by a retired architect called Hennie, she draws faster than i can think"]],
        [
            "Sketch groups are usually free to join and meet somewhere different each week.",
            "Running a sketch group mostly means picking a spot and a time.",
        ],
    ),
    # ---- something the assistant said (single session)
    Story(
        "wifi-channel",
        "lc_assistant",
        "which wifi channel did you tell me to switch to?",
        [
            [
                "u:the wifi upstairs dies every night when everyone's streaming, the app says we're on channel 11 with like 14 other networks",
                "*a:With that many networks on 11, move your 2.4 GHz band to channel 1, and put the laptops and the TV on the 5 GHz band, which has far more room.",
            ]
        ],
        [
            "Wifi channels overlap each other, which is why only a few are worth using.",
            "Switching the wifi channel is done on the router's settings page.",
        ],
    ),
    Story(
        "shot-grind",
        "lc_assistant",
        "what did you tell me to change about my espresso?",
        [
            [
                "u:ok espresso numbers: 18g in, 40g out in 14 seconds and it tastes like lemon juice",
                "*a:That's running far too fast: keep the 18 grams in, go two or three steps finer on the grinder, and aim for about 36 grams out in 28 seconds.",
                "u:'two or three steps finer' ok will try tommorow morning before work",
            ]
        ],
        [
            "Espresso tastes different with every roast, not only with the grind.",
            "Changing one thing at a time is the only way to dial in espresso.",
        ],
    ),
    Story(
        "care-home-ask",
        "lc_assistant",
        "What did you suggest I ask the care homes about for mum?",
        [
            [
                "u:we're seeing two care homes for mum next week. she's a keen gardener and a fussy eater, what do i ask",
                "*a:Ask whether residents can go out into the garden on their own, and whether they'd let her keep a small bed of her own; and ask to see a whole week's menu, not just today's lunch.",
            ]
        ],
        [
            "Care homes have to publish their inspection reports, which are worth reading before a visit.",
            "Many families look at several care homes before they choose one.",
        ],
    ),
    Story(
        "straight-lines",
        "lc_assistant",
        "what was your trick for keeping my lines straight when I sketch buildings?",
        [
            [
                "u:my buildings look drunk, everything leans. we're sketching the cathedral on saturday",
                "*a:Hold your pencil upright at arm's length to check that vertical edges really are vertical, and keep every vertical line parallel to the side of the page.",
            ]
        ],
        [
            "Sketching buildings is the classic way to learn perspective.",
            "Straight lines come easier with a ruler, but freehand lines look livelier.",
        ],
    ),
    Story(
        "mic-advice",
        "lc_assistant",
        "Which microphones did you recommend for our show?",
        [
            [
                "u:ok podcast mics: budget is like 100 euros each, two of us, recording at my kitchen table",
                "*a:At that budget get two Samson Q2U microphones: they're dynamic, so they ignore most of the kitchen echo, and they have both USB and XLR outputs for later.",
            ]
        ],
        [
            "Microphones for a podcast don't have to be expensive to sound good.",
            "Microphones recommended online are often just the most expensive ones.",
        ],
    ),
    Story(
        "retinol-start",
        "lc_assistant",
        "how often did you say to use the retinol at first?",
        [
            [
                "u:got a 0.2% retinol serum, how do I start without my face peeling off",
                "*a:Use it two evenings a week for the first month, on dry skin after cleansing, then go to every other night if your skin stays calm; and SPF the next morning, always.",
            ]
        ],
        [
            "Retinol is sold in many strengths, from gentle to prescription only.",
            "At first, retinol can make the skin feel tight and dry.",
        ],
    ),
    Story(
        "tank-cycle",
        "lc_assistant",
        "what did you tell me last month about adding fish to the new tank?",
        [
            [
                "u:tank's filled and the filter's running!! the shop guy said i can add fish tomorrow",
                "*a:I'd hold off: do a fishless cycle first, adding a pinch of food every day and testing the water; add fish only once ammonia and nitrite read zero for a week, which usually takes four to six weeks.",
            ]
        ],
        [
            "Adding fish to a tank goes more smoothly with the lights off.",
            "A new tank looks empty until the plants grow in.",
        ],
    ),
    Story(
        "rail-pass",
        "lc_assistant",
        "what did you say last week about the rail pass?",
        [
            [
                "u:so it's 5 days in kyoto and 4 in tokyo, should i get the jr pass",
                "*a:For that route I wouldn't: two single bullet train tickets between Tokyo and Kyoto cost less than the 7-day pass, so buy them at the station and use a transit card for the rest.",
            ]
        ],
        [
            "A rail pass starts counting on the first day you use it.",
            "Trips with many long train rides are where a rail pass pays off.",
        ],
    ),
    Story(
        "hedge-note",
        "lc_assistant",
        "How did you word the note about the hedge?",
        [
            [
                "u:the hedge thing is getting worse, can you help me write something to put through their door",
                "*a:Here's a start: 'Hi both, hope you're well! The hedge on our shared side has grown over the fence and shades our vegetable bed. Would you mind if we trimmed our side back this month, or would you rather do it yourselves?'",
            ]
        ],
        [
            "A note through the door feels less confrontational than knocking.",
            "A hedge can be cut back hard in late winter, before birds start nesting.",
        ],
    ),
    # ---- a preference the person stated (single session); several questions are requests it answers
    Story(
        "oat-milk",
        "lc_preference",
        "can you suggest a milky coffee I could make at home?",
        [["*u:btw i'm lactose intolerant, so whatever you suggest, oat milk, never cow's milk"]],
        [
            "Milky coffee at home is mostly about the steaming technique.",
            "A coffee you can make at home without a machine is a moka pot brew.",
        ],
    ),
    Story(
        "date-pref",
        "lc_preference",
        "any ideas for where to take my date on saturday?",
        [
            [
                "*u:just so you know, i hate bars and loud places, my ideal first date is a long walk or an afternoon in a bookshop"
            ]
        ],
        [
            "Saturday evenings are busy, so book ahead if you want a table.",
            "Taking a date somewhere you know well makes you more relaxed.",
        ],
    ),
    Story(
        "trip-pace",
        "lc_preference",
        "What should I plan for my free day in Osaka?",
        [
            [
                "*u:i'm not a museum person at all, on holiday i want food markets, wandering and maybe one hot spring, not ticking boxes"
            ]
        ],
        [
            "Osaka is often called the kitchen of Japan.",
            "A free day in a big city is best left half unplanned.",
        ],
    ),
    Story(
        "ink-pref",
        "lc_preference",
        "what should I bring to the sketching meetup?",
        [["*u:i really don't like pencil, smudges everywhere, i much prefer fineliners and a tiny watercolour set"]],
        [
            "Sketching meetups often start at a café and then spread out.",
            "Bring a small folding stool to a meetup if you can.",
        ],
    ),
    Story(
        "show-tone",
        "lc_preference",
        "what kind of vibe are we going for with the episodes?",
        [["*u:we want it relaxed and funny, two mates in a pub, not stats and tactics boards"]],
        [
            "Episodes that open with a strong hook keep more listeners.",
            "The vibe of a show comes mostly from how the hosts get on.",
        ],
    ),
    Story(
        "no-fragrance",
        "lc_preference",
        "Can you recommend a night cream for me?",
        [["*u:please nothing perfumed, anything scented makes my face go blotchy within an hour"]],
        [
            "A night cream can be richer than a day cream.",
            "It is hard to recommend a night cream without knowing your skin.",
        ],
    ),
    Story(
        "dark-beer",
        "lc_preference",
        "what should I brew next?",
        [["*u:i only really like dark beers, stouts and porters, anything hoppy tastes like soap to me"]],
        [
            "What to brew next is easier to decide once you know your kit.",
            "Brewing the same recipe twice teaches you more than trying a new one next.",
        ],
    ),
    # ---- facts spread over several sessions
    Story(
        "fish-added",
        "lc_multi",
        "Which fish have I put in the tank so far?",
        [
            ["*u:added six neon tetras today!! they school right away, it's hypnotic"],
            ["*u:got three panda corys from the shop, they clean the gravel like tiny hoovers"],
            ["*u:and the final addition: a single honey gourami, he thinks he's king of the tank"],
        ],
        [
            "Fish put in a tank should float in their bag for a while first.",
            "Beginners often put too many fish in the tank in the first month.",
        ],
    ),
    Story(
        "rsvp-no",
        "lc_multi",
        "who has said no to the wedding so far?",
        [
            [
                "*u:first decline for the wedding came in, my cousin Bram can't make it, he's in Canada for work that week"
            ],
            [
                "*u:sad news, Oma Truus won't come, the trip is too much for her hip. she wants to be on a video call for the speeches"
            ],
        ],
        [
            "Saying no to a wedding is easier on everyone when people reply early.",
            "Most couples expect about one in ten invited guests to say no.",
        ],
    ),
    Story(
        "bike-fixes",
        "lc_multi",
        "what have I managed to repair on my bike myself?",
        [
            ["*u:changed the brake pads myself!!! took an hour and a youtube video but they work"],
            ["*u:put a new chain on this weekend, the old one was stretched way past the limit"],
            ["*u:sorted my first flat at the side of the road today, felt like a pro (it was a staple)"],
        ],
        [
            "Repairing a bike yourself saves money once you have the tools.",
            "Some bike shops run evening classes where you repair your own bike.",
        ],
    ),
    Story(
        "wheel-pieces",
        "lc_multi",
        "How many things have I managed to make on the wheel?",
        [
            ["*u:my first ever bowl off the wheel survived the kiln! wonky but it holds soup"],
            ["*u:made a little jug with a spout that actually pours, the teacher was impressed"],
        ],
        [
            "Pieces made on the wheel shrink by about a tenth when they are fired.",
            "Things made in class usually take a few weeks to come back from the kiln.",
        ],
    ),
    Story(
        "dates-count",
        "lc_multi",
        "how many dates have I been on since I got back on the apps?",
        [
            ["*u:first one from the app was last night, a guy called Joris, we went bowling, nice but no spark"],
            [
                "*u:second date, someone new this time, Sem, coffee and a walk along the canal, we talked for three hours"
            ],
            ["*u:went out with Sem again!! dinner this time, i think i actually like him"],
        ],
        [
            "Dates from the apps often feel like job interviews at first.",
            "Getting back on the apps after a long break takes some courage.",
        ],
    ),
    Story(
        "dad-house",
        "lc_multi",
        "what have we changed in dad's house to make it safer?",
        [
            ["*u:my brother fitted grab rails next to dad's toilet and in the shower over the weekend"],
            [
                "*u:we swapped dad's gas hob for an induction one that switches itself off, he grumbled but he's using it"
            ],
        ],
        [
            "Making a house safer for an older person doesn't have to be expensive.",
            "Changes to a house should come slowly for someone with memory problems, so it stays familiar as well as safe.",
        ],
    ),
    Story(
        "show-guests",
        "lc_multi",
        "Which guests have we had on the podcast?",
        [
            ["*u:recorded episode 3 with our first guest, Kees, who played for the local club in the nineties"],
            ["*u:episode 5 was with a referee called Lotte, she had the best stories about angry managers"],
        ],
        [
            "Guests on a small podcast are often happy just to be asked.",
            "Podcast guests like to get the questions a few days ahead.",
        ],
    ),
    Story(
        "japan-booked",
        "lc_multi",
        "what have I booked for the Japan trip so far?",
        [
            ["*u:booked the ryokan in Hakone for two nights, it has a private outdoor bath"],
            ["*u:got tickets for the Ghibli museum!! the 18th at 2pm"],
            ["*u:booked a sushi making class in Osaka for the very last evening"],
        ],
        [
            "Trains in Japan are easy to book at the station on the day.",
            "Most things for a Japan trip can be booked once you are there.",
        ],
    ),
    # ---- a fact that changed later (the question asks for the current one; both sessions are gold)
    Story(
        "guest-count",
        "lc_update",
        "how many guests are we at now?",
        [
            ["*u:guest list is at 140 and that's before my mum adds her side 😬"],
            ["*u:after the big cull we're down to 86 guests, my mum is still sulking about her book club"],
        ],
        [
            "Guests at a small wedding get more time with the couple.",
            "Guest numbers matter now for the caterer, who needs them a month before.",
        ],
    ),
    Story(
        "grinder-now",
        "lc_update",
        "what am I using to grind my coffee these days?",
        [
            ["*u:i'm on pre-ground coffee from the supermarket for now, the grinder will have to wait till payday"],
            ["*u:finally got a proper coffee grinder, a Eureka Mignon, and the difference is ridiculous"],
        ],
        [
            "Grinding coffee just before brewing keeps the flavour.",
            "These days many coffee shops will grind beans for you.",
        ],
    ),
    Story(
        "dad-home",
        "lc_update",
        "Where is my father living now?",
        [
            ["*u:dad is still in the house on his own, we pop in every day but i worry at night"],
            [
                "*u:dad moved into the assisted living place near my work last week, he already has a card game going with two other men"
            ],
        ],
        [
            "Living alone gets harder for an older father after a fall.",
            "Where a parent is living is often decided after a crisis, not before.",
        ],
    ),
    Story(
        "commute-km",
        "lc_update",
        "how far is my cycle to work now?",
        [
            ["*u:my ride to work is only 4 km, flat the whole way"],
            ["*u:new office is across the river so it's 11 km each way now, my legs are dying"],
        ],
        [
            "Cycling to work gets easier after the first two weeks.",
            "How far you cycle matters less than the hills on the way.",
        ],
    ),
    Story(
        "release-day",
        "lc_update",
        "when do new episodes come out now?",
        [
            ["*u:we're putting out a new episode every friday morning, before people's weekend football"],
            ["*u:we moved releases to monday evenings so we can talk about the weekend's matches"],
        ],
        [
            "New episodes should come out at the same time every week.",
            "Episodes that come out late at night get fewer downloads.",
        ],
    ),
    Story(
        "seeing-someone",
        "lc_update",
        "Am I seeing anyone at the moment?",
        [
            ["*u:still single, still swiping, still tired lol"],
            ["*u:ok so Sem and I are official, we deleted the apps together last night, very romantic 😂"],
        ],
        [
            "Seeing someone new can take up a lot of your free evenings.",
            "At the moment a lot of people meet partners through friends again.",
        ],
    ),
]


# Days ago of each gold session, for the questions that say when (what the words mean on the day asked).
WHEN: dict[str, list[tuple[float, float]]] = {
    "pottery-studio": [(15, 28)],  # "a few weeks ago"
    "espresso-machine": [(70, 120)],  # "a few months ago"
    "first-brew": [(11, 17)],  # "a couple of weeks ago"
    "tank-cycle": [(20, 30)],  # "last month"
    "rail-pass": [(4, 8)],  # "last week"
}
