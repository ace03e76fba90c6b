"""A scripted session of each shipped procedure: 40 turns, read from top to bottom.

Each script plays 40 turns (travel turns, dungeon rounds) as a game master would, typing
the hazard die so that every result comes up, and covers lights running out, a rest, an
encounter and the procedure's own rule. The exported plain text is kept under
``docs/examples/`` so a reader can see what a session looks like; the test checks the
program still tells it the same way. After a deliberate change of wording, write the
examples again with ``DELVETUI_WRITE_EXAMPLES=1 pytest tests/test_procedure_sessions.py``
and read them through before committing.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.export import export
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.cli_support import played as cli_played

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
#: Every command is stamped with this moment, so the export is the same on every run.
NOW = dt.datetime(2026, 3, 14, 19, 30, tzinfo=dt.UTC)


def turns(command: str, count: int) -> list[str]:
    return [command] * count


SCRIPTS: dict[str, list[str]] = {
    # Delving (000): the d6 hazard die; a sign foretells the next encounter; torches burn
    # out on a 3; walking is surprised; darkness; searching takes two turns in dim light.
    "delving": [
        "pc add Ash hp=8",
        "pc add Bryn hp=6",
        "light add torch count=3 carrier=Ash",
        "light on torch",
        "light add candle count=2 carrier=Bryn",
        "session start",
        *turns("turn crawl hazard=6", 2),
        "turn crawl hazard=4",
        "turn crawl hazard=2",
        "turn rest hazard=6",
        "turn crawl hazard=2",
        "turn crawl hazard=6",
        "turn search hazard=6",
        "turn crawl hazard=5 sign=ghouls",
        "turn crawl hazard=6",
        "turn crawl hazard=1",
        "note The ghouls are feasting; the party slips past.",
        "turn crawl hazard=3",
        "turn crawl hazard=6",
        "light on torch",
        "turn walk hazard=1 'creature=giant rats'",
        *turns("turn crawl hazard=6", 3),
        "turn crawl hazard=3",
        "light on candle",
        "turn search hazard=6 hazard=4",
        "turn run hazard=6",
        "turn crawl hazard=6",
        "light on candle",
        *turns("turn crawl hazard=6", 4),
        "turn crawl hazard=5 'sign=a gelatinous cube'",
        *turns("turn crawl hazard=6", 3),
        "turn rest hazard=2",
        "turn rest hazard=6",
        "turn crawl hazard=1",
        *turns("turn crawl hazard=6", 4),
        "turn crawl hazard=4",
        "turn crawl hazard=6",
        "turn walk hazard=6",
        "session end",
    ],
    # Dungeon Turn (002): the first 6 turns ignore 4-6; lights only dim and go out at a 5;
    # fatigue tired then exhausted; an hour's rest heals; an encounter breaks the rest;
    # harvesting and leaving the dungeon.
    "dungeon-turn": [
        "pc add Ash hp=10 STR=14 INT=12 WIS=16 PROF=2",
        "pc add Bo hp=8 STR=10 DEX=14",
        "light add torch count=2 carrier=Ash",
        "light on torch",
        "light add candle count=2 carrier=Bo",
        "session start",
        "turn explore hazard=4",
        "turn explore hazard=5",
        "turn explore hazard=6",
        "turn search hazard=3",
        "turn explore hazard=2",
        "turn explore hazard=6",
        "turn explore hazard=4",
        "turn explore hazard=1 disposition=4",
        "turn harvest hd=2 by=Ash hazard=6",
        "turn explore hazard=5",
        *turns("turn explore hazard=6", 3),
        "turn explore hazard=5",
        "light on candle",
        "turn explore hazard=2",
        "turn rest hazard=6",
        "turn explore hazard=2",
        "turn explore hazard=6",
        "turn explore hazard=5",
        "light on torch",
        "pc Ash hp=-4",
        *turns("turn rest hazard=6", 3),
        "turn rest hazard=1 disposition=9",
        *turns("turn rest hazard=6", 6),
        "turn explore hazard=3 sign=kobold-spoor",
        *turns("turn explore hazard=6", 8),
        "turn explore hazard=4",
        "turn explore hazard=6",
        "turn leave path=dangerous length=2 rooms=3 leave.Ash=14 leave.Bo=9",
        "session end",
    ],
    # Dungeon Exploration (001): torches burn 6 turns; a 3 puts one out (a torch just lit
    # flickers, lantern oil runs low); fatigue is a CON save unless the party rests; a rest
    # is owed every 6 turns; darkness halves movement and forbids searching.
    "exploration": [
        "pc add Ash hp=8 STR=12 DEX=16 CON=14 WIS=14",
        "pc add Bo hp=6 CON=10",
        "light add torch count=4 carrier=Ash",
        "light on torch",
        "light add lantern carrier=Bo",
        "session start",
        "turn cautious hazard=3",
        "turn cautious hazard=2",
        "turn cautious hazard=5",
        "turn search dc=12 by=Ash hazard=6",
        "turn cautious hazard=1",
        "do surprise",
        "turn rushing hazard=3",
        "turn cautious hazard=6",
        "light on torch",
        "turn cautious hazard=4",
        "turn rest hazard=5",
        "turn cautious hazard=4",
        "turn cautious hazard=6",
        *turns("turn cautious hazard=5", 3),
        "turn cautious hazard=6",
        "light on lantern",
        "turn listen by=Bo hazard=6",
        "turn cautious hazard=3",
        "turn cautious hazard=5",
        "light refuel lantern1",
        "light on lantern1",
        "turn rest hazard=6",
        *turns("turn cautious hazard=5", 5),
        "turn cautious hazard=1 creature=goblins",
        "light off lantern1",
        "turn cautious hazard=5",
        "turn cautious hazard=6",
        "light on torch",
        "turn force-door dc=14 by=Ash hazard=5",
        "turn rest hazard=5",
        *turns("turn cautious hazard=6", 9),
        "turn pick-lock dc=13 by=Ash hazard=5",
        "turn cautious hazard=2",
        "session end",
    ],
    # Trespasser (003): light depletion checks on usage dice at the start of each round;
    # the alarm and its d10 encounter check; Hide with a group Stealth check and sparks;
    # character actions within a round.
    "trespasser": [
        "pc add Ash hp=10 MIGHT=14 AGILITY=12 INTELLECT=13 ENDURANCE=3",
        "pc add Bryn hp=8 AGILITY=15 INTELLECT=11 ENDURANCE=2",
        "light add torch count=3 carrier=Ash",
        "light on torch",
        "session start",
        "turn advance hazard=6",
        "do search by=Bryn what=room",
        "turn stay",
        "light on torch",
        "do listen by=Ash",
        "turn advance hazard=9",
        "turn stay",
        "do batter-door by=Ash",
        "turn advance hazard=3",
        "turn hide stealth=success sparks=1",
        "turn advance hazard=8",
        "turn backtrack hazard=5",
        "turn stay",
        "do moments-rest by=Ash ate=no",
        "do moments-rest by=Bryn ate=yes",
        "turn advance hazard=2",
        "turn hide stealth=failure",
        "turn advance hazard=10",
        *turns("turn stay", 2),
        "do pick-lock by=Bryn tools=improvised",
        "turn advance hazard=7",
        "turn hide stealth=success sparks=0",
        "turn advance hazard=9",
        "turn backtrack hazard=10",
        "turn advance hazard=4",
        "turn stay",
        "do cast-incantation by=Bryn",
        "turn advance hazard=10",
        "turn hide stealth=success sparks=2",
        *turns("turn backtrack hazard=10", 3),
        "turn advance hazard=1",
        *turns("turn stay", 2),
        "turn advance hazard=10",
        "turn advance hazard=6",
        "turn stay",
        "turn hide stealth=success sparks=1",
        *turns("turn advance hazard=10", 7),
        "turn stay",
        "session end",
    ],
    # Old-School Essentials (the SRD, OGL 1.0a): a wandering monster check every second
    # turn, first in the turn; surprise for each side, none for the monsters while the party
    # carries light; a turn's rest each hour; searching, listening, forcing doors by STR;
    # the reaction with the speaker's CHA; running to exhaustion; then days outdoors with
    # losing direction and wandering monsters by terrain, rations, foraging, hunting, a
    # forced march and a day's rest in seven.
    "ose": [
        "enter dungeon",
        "pc add Ash hp=7 STR=16 CHA=13 MV=120",
        "pc add Bo hp=4 STR=7 CHA=9 MV=120",
        "pc add Cole hp=5 STR=12 CHA=8 MV=90",
        "pc Ash +7 rations",
        "pc Bo +7 rations",
        "pc Cole +7 rations",
        "light add torch count=4 carrier=Ash",
        "light add lantern carrier=Bo",
        "pc Bo +2 oil",
        "light on torch",
        "session start",
        "turn explore",  # 1
        "turn explore hazard=4",  # 2
        "turn search search=3",  # 3
        "turn search odds=2 search=2 hazard=5",  # 4: an elf finds the secret door
        "do listen by=Bo listen=1",
        "do force by=Cole force=2",
        "turn explore",  # 5
        "do trap trap=5",
        "turn rest hazard=6",  # 6: the hour's rest; the torch burns out
        "light on torch",
        "turn explore",  # 7
        "turn explore hazard=1 distance=6 surprise-party=3",  # 8: lit, so no surprising them
        "do parley by=Ash reaction=9",
        "turn familiar",  # 9
        "turn familiar hazard=3",  # 10
        "turn explore",  # 11
        "turn explore hazard=6",  # 12: six turns without rest; the torch burns out
        "light on lantern1",
        "turn rest",  # 13
        "turn run hazard=1 distance=3 surprise-party=1",  # 14: fleeing
        "do drop distracted=4",
        "turn run",  # 15
        "turn run hazard=5",  # 16: thirty minutes of running
        "turn rest",  # 17
        "turn rest hazard=6",  # 18
        "turn rest",  # 19: three turns of rest end the exhaustion
        "light off lantern1",
        "turn explore hazard=1 distance=9 surprise-party=2 surprise-monsters=1",  # 20: dark
        "do react reaction=4",
        "light on lantern1",
        "counter set monster-odds 2",
        "note The fight was loud: the GM raises the odds.",
        "turn explore",  # 21
        "turn explore hazard=2 distance=5 surprise-party=4",  # 22
        "counter set monster-odds 1",
        "turn explore",  # 23
        "turn search search=6 hazard=6",  # 24
        "light refuel lantern1",
        "light off lantern1",
        "enter wilderness",
        "do terrain terrain=woods",
        "turn travel-rough lost=2 wandering=5 forage=yes foraging=1 supply=3",  # 25: lost
        "turn travel-rough lost=4 wandering=2 surprise-party=6 surprise-monsters=2 distance=2",
        "do evade chance=35 evade=60",
        "do pursuit caught=2",
        "do evade chance=35 evade=12",
        "do terrain terrain=grassland",
        "turn travel path=trail wandering=3",  # 27
        "turn travel lost=5 wandering=1 surprise-party=2 surprise-monsters=4 distance=3",  # 28
        "do react reaction=12",
        "pc Bo rations=0",
        "note Bo's pack was lost in the river.",
        "turn travel-road speed=forced wandering=6",  # 29: Bo goes without food
        "turn rest-day wandering=4",  # 30
        "pc Bo +3 rations",
        "turn hunt hunt=1 distance=5 wandering=6",  # 31
        "pc Ash +2 rations",
        "do terrain terrain=swamp",
        "turn travel-hard lost=3 wandering=3 distance=7 surprise-party=5 surprise-monsters=5",
        "turn travel-hard path=guide wandering=4",  # 33
        *turns("turn travel-hard path=guide wandering=6", 2),  # 34-35
        "do terrain terrain=hills",
        *turns("turn travel-rough lost=6 wandering=6", 3),  # 36-38: a seventh day on the road
        "turn rest-day wandering=6",  # 39
        "turn travel-road wandering=6",  # 40
        "session end",
    ],
    # Shadowdark RPG (The Arcane Library; mechanics only): crawling rounds with the d6
    # encounter check every 3 rounds while unsafe, 2 while risky, every round while deadly
    # or in total darkness; close, near or far, what the creatures are doing, the reaction
    # with the speaker's CHA; torches burning an hour of real time; a table's torch set to
    # rounds (ten to the hour); minutes passing; then a camp: a campfire of three torches,
    # eight hours' rest on a ration, an interruption and its CON checks.
    "shadowdark": [
        "enter crawl",
        "pc add Ash hp=8 CHA=14 CON=12 DEX=15 WIS=11",
        "pc add Bo hp=5 CHA=4 CON=8",
        "pc add Cole hp=6 CHA=10 CON=14",
        "light add torch count=9 carrier=Ash",
        "light add lantern carrier=Bo",
        "pc Bo +1 oil",
        "light on torch",
        "session start",
        "turn crawl",  # 1
        "turn crawl",  # 2
        "turn crawl hazard=4",  # 3: unsafe, a check every third round
        "do sneak by=Ash dc=12 sneak=14",
        "turn crawl",  # 4
        "turn crawl",  # 5
        "turn crawl hazard=1 how-far=3 activity=7 reaction=6",  # 6
        "do parley by=Ash reaction=8",
        "note Ash talks the goblins round; they point the way down.",
        "counter set danger risky",
        "turn crawl",  # 7
        "turn crawl hazard=2",  # 8: risky, every second round
        "realtime pass 60m",
        "note An hour of real play: the torch burns out.",
        "turn crawl",  # 9: total darkness, a check every round
        "turn crawl hazard=6",  # 10
        "light on lantern1",
        "turn crawl",  # 11
        "turn crawl hazard=5",  # 12
        "turn pass-time minutes=10 time-passes=5",  # 13: ten minutes searching the shrine
        "do disturbance disturbance=1 how-far=1 activity=2 reaction=3",
        "note The shrine's bell rings out; a ghoul lunges from the alcove.",
        "do treasure treasure=2",
        "counter set danger deadly",
        "turn crawl hazard=6",  # 14
        "turn crawl hazard=3",  # 15
        "light off lantern1",
        "light realtime torch1 off",
        "note The table stops keeping real time: the torches burn ten rounds.",
        "light on torch1",
        "counter set danger unsafe",
        "turn crawl",  # 16: unsafe again, counted from here
        "turn crawl",  # 17
        "turn crawl hazard=6",  # 18
        "turn crawl",  # 19
        "turn crawl",  # 20
        "turn crawl hazard=6",  # 21
        "turn crawl",  # 22
        "turn crawl",  # 23
        "turn crawl hazard=6",  # 24
        "turn crawl",  # 25: the torch's ten rounds are up
        "enter camp",
        "light add campfire lit",
        "pc Ash hp=3",
        "pc Bo hp=2",
        "pc Cole rations=0",
        "turn rest",  # 26: the first hour eats a ration
        "turn rest hazard=6",  # 27: unsafe, every third hour
        "turn rest",  # 28
        "turn rest",  # 29
        "turn rest hazard=1 how-far=5 activity=12 reaction=10"  # 30: an interruption
        " interrupted.Ash=15 interrupted.Bo=4 interrupted.Cole=11",
        "note Curious giant rats sniff at the fire and wander off.",
        "turn rest",  # 31
        "turn rest",  # 32
        "turn rest hazard=6",  # 33: Ash's eighth hour; the campfire's eight hours are up
        "light add campfire lit",
        "pc Cole +1 rations",
        "turn rest",  # 34
        "turn rest",  # 35
        "turn rest hazard=6",  # 36
        "turn rest",  # 37
        "turn rest",  # 38: Bo's eighth hour since the spoiled one
        "turn rest hazard=6",  # 39
        "enter crawl",
        "light add torch carrier=Cole lit",
        "turn crawl",  # 40
        "session end",
    ],
    # Mausritter (Losing Games; the SRD, CC BY 4.0): exploration turns in an adventure site
    # with the d6 encounter roll every third turn (1 an encounter, 2 an omen) and on noise;
    # the 2d6 reaction; a torch's three usage dots, a lantern after it; then the wilds:
    # watches with the rolls at the Morning and Evening watches and the d12 hour, the day's
    # weather, the STR save in poor weather, a long rest, foraging, difficult terrain, the
    # day's Exhausted and Hungry; a week's full rest; back in a site by an electric lantern.
    # Errant: the d6 Event Die on the table of each kind of turn; moving slowly or quickly
    # rolls a positive or negative die; Burn lowered by the die; Exhaustion from the fifth
    # march, a lone watch and starving; two turns of sleep; downtime.
    "errant": [
        "pc add Ash hp=6 PHYS=12 SKILL=9 MIND=8 PRES=10",
        "pc add Bryn hp=4 PHYS=9 SKILL=13 MIND=11 PRES=8",
        "pc add Cob hp=5 PHYS=11 SKILL=8 MIND=13 PRES=9",
        "pc Ash +4 supply",
        "pc Bryn +4 supply",
        "light add torch count=3 carrier=Ash",
        "light add lantern carrier=Bryn",
        "pc Bryn +1 oil",
        "time set 06:00",
        "enter travel",
        "session start",
        "turn peregrinate hazard=6",  # 1: 06:00, out of Cray's Ford on the north road
        "turn peregrinate hazard=3",  # 2: a ration each
        "turn peregrinate nav=failure lost=3 hazard=4",  # 3: lost, south-east
        "do weather weather-spring=2",
        "turn peregrinate-slowly hazard=1,5 sign=wolves",  # 4: 18:00, night falls
        "do tire by=Bryn",
        "turn peregrinate-quickly hazard=2,6 choice=exhaustion",  # 5: the fifth march of the day
        "turn camp hazard=6",  # 6: 02:00
        "turn camp campsite=uncomfortable watch=one by=Cob hazard=3",  # 7: no Rest there
        "turn peregrinate hazard=1 combat-distance=5",  # 8: the wolves
        "do surprise surprise-roll=6",
        "do react reaction-roll=2",
        "note The wolves scatter after the first arrow.",
        "turn forage hazard=4",  # 9
        "do foraged by=Ash",
        "counter set season winter",
        "do weather weather-winter=3",
        "turn peregrinate hazard=6",  # 10: through the hail, to the barrow mound
        "turn camp-unwatched hazard=5 combat-distance=2",  # 11: no watch: the sign bites
        "note A barrow-wight at the edge of the firelight; the Company runs for the mound.",
        "turn camp hazard=3",  # 12: no rations left: Supply, or starving
        "turn camp hazard=4",  # 13: a night's Rest at last
        "counter set season spring",
        "do weather weather-spring=12",
        "turn camp-open hazard=6",  # 14: a beautiful morning: one turn of sleep is enough
        "enter exploration",
        "light on torch",
        "turn explore hazard=6",  # 15: the barrow's gate
        "turn explore hazard=5 sign=ghouls",  # 16
        "turn act hazard=3",  # 17: torch2 loses a Burn
        "turn explore-slowly hazard=2,4",  # 18
        "turn explore hazard=2 choice=rest",  # 19: a Rest, and a negative die owed
        "turn break-door hazard=6,3",  # 20-21: torch2 burns out
        "light on torch",
        "turn explore hazard=1 combat-distance=3",  # 22: the ghouls
        "do surprise surprise-roll=3",
        "do react reaction-roll=9",
        "note Amicable ghouls: they trade a map of the lower crypt for the wolf pelts.",
        "turn act hazard=6",  # 23
        "turn rest hazard=6",  # 24: Blocks mended
        "turn explore-quickly hazard=3,5",  # 25
        "turn explore hazard=3",  # 26: torch3 burns out
        "light add candle carrier=Cob",
        "light on candle",
        "turn explore hazard=3",  # 27: the candle gutters
        "turn act hazard=3",  # 28: no light: Supply
        "light on lantern",
        "turn explore-known hazard=6",  # 29
        "turn explore hazard=4",  # 30
        "turn act hazard=3",  # 31
        "turn act hazard=3",  # 32
        "turn act hazard=3",  # 33
        "turn act hazard=3",  # 34: the lantern's oil is spent
        "light refuel lantern1",
        "light on lantern1",
        "turn explore hazard=6",  # 35
        "turn explore-known hazard=6",  # 36
        "turn explore-known hazard=5",  # 37: out of the barrow
        "enter downtime",
        "turn downtime hazard=2",  # 38: a month in Cray's Ford
        "turn downtime hazard=4",  # 39
        "turn downtime hazard=5",  # 40
        "session end",
    ],
    "mausritter": [
        "pc add Ash hp=4 STR=12 DEX=9 WIL=8",
        "pc add Bryn hp=3 STR=9 DEX=12 WIL=10",
        "pc add Cob hp=5 STR=10 DEX=8 WIL=11",
        "light add torch count=3 carrier=Ash",
        "light add lantern carrier=Bryn",
        "pc Bryn +1 oil",
        "light on torch",
        "session start",
        "turn explore",  # 1: the old grain mill, 06:00
        "turn explore",  # 2
        "turn explore hazard=4",  # 3: the third turn's encounter roll
        "turn act",  # 4: searching the miller's larder
        "do eat by=Ash",
        "turn explore",  # 5
        "turn explore hazard=2",  # 6: an omen
        "note Fresh claw marks on the millstone.",
        "turn act",  # 7
        "do noise noise=1",
        "do reaction reaction=4",
        "note A rat sentry, unfriendly; Cob knocks over a sack of grain in the scuffle.",
        "turn act",  # 8: the fight
        "pc Cob hp=1",
        "turn short-rest hazard=5 heal.Ash=3 heal.Bryn=2 heal.Cob=4",  # 9
        "turn explore",  # 10
        "turn explore",  # 11
        "turn explore hazard=1",  # 12: an encounter
        "do reaction reaction=10",
        "note A beetle trader in the flour loft, happy to swap thread for news.",
        "turn act",  # 13
        "turn explore",  # 14
        "turn explore hazard=6",  # 15
        "turn explore",  # 16
        "turn explore",  # 17
        "turn explore hazard=3",  # 18: the torch's three dots are marked
        "light on lantern1",
        "turn explore",  # 19
        "turn act",  # 20
        "turn explore hazard=6",  # 21
        "enter wilds",
        # 22: 09:30, the first watch of the morning: a rain storm, STR saves
        "turn travel weather-spring=2 watch-encounter=2"
        " weather.Ash=5 weather.Bryn=14 weather.Cob=10",
        "turn travel weather.Ash=3 weather.Bryn=2 weather.Cob=15",  # 23
        "turn long-rest watch-encounter=1 hour=3",  # 24: the evening watch, rest
        "do reaction reaction=12",
        "note A hedgehog shelters the mice from the rain under its bramble.",
        "turn forage by=Cob supply.Cob=3",  # 25: night
        "turn travel weather-spring=9 watch-encounter=6",  # 26: a fair day
        "do eat by=Ash",
        "turn travel-difficult watch-encounter=5",  # 27-28: a stream to ford
        "turn stay",  # 29
        "turn long-rest weather-spring=12 watch-encounter=6",  # 30
        "enter haven",
        "turn full-rest",  # 31: a week at Brambleton
        "enter site",
        "light refuel lantern1",
        "light add electric-lantern carrier=Cob",
        "light on electric-lantern",
        "turn explore",  # 32
        "turn explore hazard=5",  # 33
        "turn act",  # 34
        "turn explore",  # 35
        "turn explore hazard=6",  # 36
        "turn short-rest",  # 37
        "turn explore",  # 38
        "turn explore hazard=4",  # 39
        "turn explore",  # 40
        "session end",
    ],
    # Travel Turns (004): the d20 threat table with advantage when cautious; torches an
    # hour, lanterns three; time dice; resilience past CON hours and exhaustion; rolling to
    # return.
    "travel-turn": [
        "pc add Ash hp=8 CON=10 STR=12 MOD=2",
        "pc add Bo hp=6 CON=8 WIS=13 PROF=1",
        "time set 05:00",
        "light add torch count=6 carrier=Ash",
        "light add lantern count=2 carrier=Bo",
        "light on torch",
        "session start",
        "turn cautious hazard=20,3",
        "turn cautious hazard=14,12",
        "light on lantern",
        "turn careless hazard=6,15",
        "turn cautious hazard=1,1",
        "turn cautious hazard=18,9",
        "light add daylight lit",
        *turns("turn cautious hazard=12,16", 3),
        "turn careless hazard=20,11",
        "turn cautious hazard=19,4",
        "turn cautious hazard=9,2 resilience.Bo=6",
        "turn cautious hazard=20,7 resilience.Bo=13,4",
        "turn rest hazard=17",
        "pc Bo -exhausted",
        *turns("turn cautious hazard=15,13", 4),
        "light off daylight1",
        "light on torch",
        "turn cautious hazard=11,10",
        "turn careless hazard=2,19",
        "light on torch",
        "turn cautious hazard=16,20",
        "turn rest hazard=20",
        "light on lantern",
        *turns("turn cautious hazard=13,8", 3),
        "turn careless hazard=10,18",
        *turns("turn cautious hazard=12,17", 3),
        "turn rest hazard=19",
        *turns("turn cautious hazard=14,6", 6),
        "turn cautious hazard=1,20",
        *turns("turn cautious hazard=12,12", 4),
        "turn return path=arduous return.Ash=15 return.Bo=6",
        "session end",
    ],
    # Basic Fantasy RPG: ten-minute turns with a wandering monster check every third;
    # torches rolled 1d4+4 turns when lit; surprise for each side; the reaction with the
    # lead's Charisma bonus; four-hour watches outdoors, a day's food at each midnight and
    # hunger from the third day without.
    "basic-fantasy": [
        "pc add Ari hp=8 STR=16 CHA=16 DEATH=12",
        "pc add Morningstar hp=5 INT=15 CHA=12 DEATH=13",
        "light add torch count=4 carrier=Ari",
        "light add lantern carrier=Morningstar",
        "light on torch burn=1",
        "session start",
        "turn explore",
        "turn explore speed=30",
        "turn search search=2 hazard=4",
        "do listen by=Morningstar listen=1",
        "turn explore",
        "turn search search=1",
        "light on torch burn=4",
        "turn explore hazard=1 monster_surprise=2 surprise=2 reaction=5,4",
        "note Goblins, caught napping: they will parley.",
        *turns("turn rest", 2),
        "turn explore hazard=6",
        *turns("turn explore", 2),
        "turn explore by=Morningstar hazard=1 monster_surprise=5 surprise=1 reaction=3",
        "turn rest",
        "light on lantern burn=2",
        "turn explore",
        "turn explore hazard=5",
        "turn search search=3",
        "turn explore",
        "turn explore hazard=6",
        "turn explore",
        "light off lantern1",
        "light add candle count=2 carrier=Morningstar",
        "light on candle",
        "turn explore",
        "light off candle2",
        "light on lantern1",
        "turn explore hazard=2",
        "turn explore",
        "light off lantern1",
        "light refuel lantern1",
        "pc Morningstar rations=0",
        "enter wilderness",
        "turn travel outdoors=4",
        "turn travel outdoors=1 monster_surprise=3 surprise=6 reaction=6,6",
        "turn camp outdoors=5",
        "turn camp outdoors=3",
        "turn camp outdoors=6",
        "turn travel outdoors=2",
        "turn travel outdoors=5",
        "turn forced-march outdoors=6",
        "turn camp outdoors=4",
        "turn camp outdoors=2",
        "turn camp by=Morningstar outdoors=1 monster_surprise=1 surprise=4 reaction=1,1",
        "turn travel outdoors=6",
        "turn travel outdoors=3",
        "turn camp outdoors=5",
        "turn camp outdoors=4",
        "turn camp outdoors=6",
        "turn travel outdoors=2",
        "turn travel outdoors=5",
        "session end",
    ],
    # Cairn 2e (Player's Guide, Procedures): watches on a road, a trail and in the wilds,
    # getting lost by the path, night travel rolling the Wilderness Events twice, Supply,
    # Make Camp (a meal each, Fatigue cleared) and a night skipped; dungeon cycles that
    # roll the Dungeon Events only when the party lingers, hurries, enters, rests or is
    # loud; a torch blown out three times, a lantern refilled; a deprived member who heals
    # nothing by resting.
    "cairn": [
        "pc add Ash hp=4 STR=11 DEX=13 WIL=8",
        "pc add Bryn hp=5 STR=14 DEX=9 WIL=12",
        "pc Bryn rations=1",
        "light add torch carrier=Ash",
        "light add torch carrier=Bryn",
        "light add lantern carrier=Bryn",
        "party +1 oil",
        "session start",
        "turn travel path=road hazard=3 weather-spring=3",
        "turn travel path=trail lost=2 hazard=2",
        "turn camp hazard=6",
        "turn travel lost=5 hazard=5 weather-spring=4 toll=fatigue barrier=action",
        "turn supply by=Ash hunters=2 bounty=2 hazard=4",
        "turn night-travel path=wilderness lost=4 wilderness-events=3 hazard=1 reaction=9",
        "enter dungeon",
        "light on torch1",
        "turn move",
        "turn enter events=2",
        "turn hurry events=3",
        "pc Ash hp=-2",
        "turn rest events=6",
        "turn linger events=4",
        "light on torch1",
        "turn linger events=1 reaction=2",
        "turn enter events=4",
        "light on torch1",
        "turn enter events=4",
        "light on lantern1",
        "turn move",
        "do noise events=5 exhaustion=fatigue",
        "turn rest events=6",
        "turn linger events=5 exhaustion=ration",
        "turn move",
        "turn enter events=4",
        "light refuel lantern1",
        "light on lantern1",
        "turn move",
        "turn hurry events=6",
        "turn move",
        "enter wilderness",
        "turn travel path=wilderness lost=3 hazard=1 reaction=12 weather-spring=1",
        "turn camp hazard=6",
        "turn travel path=trail lost=6 hazard=5 barrier=fatigue",
        "turn explore hazard=2",
        "turn supply by=Bryn bounty=1 hazard=3",
        "turn camp hazard=6",
        "turn travel path=road hazard=3",
        "turn travel hazard=4",
        "turn camp hazard=6",
        "enter dungeon",
        "pc Ash hp=-3",
        "pc Bryn hp=-1",
        "turn move",
        "turn rest events=6",
        "turn linger events=2",
        "turn hurry events=6",
        "turn enter events=3",
        "turn move",
        "enter wilderness",
        "turn travel path=road hazard=6 weather-spring=6",
        "turn travel hazard=2",
        "turn camp hazard=6",
        "session end",
    ],
    # Cairn modular procedures (Adventurer's Guide): the loaded encounter die every second
    # dungeon turn and at once for noise; careful and quick movement, two searches, a rest
    # answering Exhaustion; torches of six turns; 4-hour hex-crawl turns with getting lost,
    # reorienting, exploring, locating, foraging, the event die and its d4 Expiration; two
    # camp turns a night, one not enough.
    "cairn-modular": [
        "pc add Ash hp=4 WIL=12",
        "pc add Bryn hp=5",
        "light add torch count=3 carrier=Ash",
        "light add lantern carrier=Bryn",
        "light on torch",
        "session start",
        "turn careful",
        "turn careful hazard=2",
        "do quick-search",
        "turn search",
        "do noise hazard=4",
        "turn rest hazard=3",
        "turn quick",
        "turn careful hazard=1 reaction=5 wants=3",
        "light on torch",
        "turn careful",
        "turn careful hazard=5",
        "turn careful",
        "turn careful hazard=4",
        "turn careful",
        "turn careful hazard=6",
        "light on lantern1",
        "enter wilderness",
        "turn travel lost=3 events=2",
        "turn difficult lost-hard=2 off-course=5 events=3",
        "turn reorient events=4 expiration=3 hunger=ration",
        "turn treacherous lost-hard=6 events=5",
        "turn camp events=6",
        "turn camp events=1 reaction=10 wants=8",
        "turn road events=4 expiration=1",
        "turn road events=6",
        "turn explore explore=2 events=6",
        "turn locate locate=6 events=3",
        "turn forage by=Bryn forage=1 supply.Bryn=3 events=2",
        "turn camp events=6",
        "turn road events=6",
        "turn road events=6",
        "turn road events=6",
        "turn interact events=6",
        "enter dungeon",
        "light refuel lantern1",
        "light on lantern1",
        "turn careful",
        "turn quick hazard=6",
        "turn search",
        "turn careful hazard=2",
        "turn rest",
        "turn careful hazard=3",
        "turn careful",
        "turn careful hazard=6",
        "enter wilderness",
        "turn camp events=6",
        "turn camp events=6",
        "turn road events=5",
        "turn road events=6",
        "session end",
    ],
}


def played(home: Path, procedure_id: str) -> Expedition:
    """The script played on a real expedition file, every command stamped at NOW."""
    made = Expedition.create(
        home / f"{procedure_id}.delve", find(procedure_id), seed=40, now=NOW, name=procedure_id
    )
    for command in SCRIPTS[procedure_id]:
        made.execute(command, now=NOW)
    return made


@pytest.mark.parametrize("procedure_id", sorted(SCRIPTS))
def test_a_forty_turn_session_covers_the_procedure(home: Path, procedure_id: str) -> None:
    with played(home, procedure_id) as made:
        procedure = made.procedure
        state = made.state
        assert state.turn == 40
        every = [e for b in made.batches() for e in b.events]
        hazard_table = procedure.rolls["hazard"].table
        if hazard_table:
            rows = {e.row for e in every if isinstance(e, ev.ResultRead) and e.key == "hazard"}
            assert rows == set(range(len(procedure.tables[hazard_table].rows)))
        else:
            rule = procedure.rolls["hazard"]
            labels = {e.label for e in every if isinstance(e, ev.ResultRead) and e.key == "hazard"}
            assert labels == {rule.hit_label, rule.miss_label}
        assert any(isinstance(e, ev.LightPutOut) and e.reason != "put out" for e in every)
        assert any(isinstance(e, ev.TurnStarted) and e.resting for e in every) or (
            procedure_id == "trespasser"  # its rest is a character's moment's rest
            and any(isinstance(e, ev.TrackChanged) for e in every)
        )
        assert any(isinstance(e, ev.EncounterBegan) for e in every)
        text = export(made, "txt", now=NOW)
    example = EXAMPLES / f"{procedure_id}.txt"
    if os.environ.get("DELVETUI_WRITE_EXAMPLES"):
        example.write_text(text, encoding="utf-8")
    assert text == example.read_text(encoding="utf-8"), (
        f"{example.name} no longer matches the program; see this module's docstring."
    )


def test_the_special_rules_show_in_the_examples() -> None:
    """What each text is known for reads in its example, in the text's own terms."""
    read = {  # as one line: the export wraps at its width
        path.stem: " ".join(path.read_text(encoding="utf-8").split())
        for path in EXAMPLES.glob("*.txt")
    }
    assert "Encounter with ghouls, as the sign foretold!" in read["delving"]
    assert "The party is surprised (walking, running or in total darkness)" in read["delving"]
    assert "candle2 is blown out by running." in read["delving"]
    assert "(ignored during the first 6 turns)" in read["dungeon-turn"]
    assert "torch2 dims (Depletion)." in read["dungeon-turn"]
    assert "interrupts the party's rest" in read["dungeon-turn"]
    assert "flickers ominously" in read["exploration"]
    assert "lantern1's fuel runs low: 2 turns left." in read["exploration"]
    assert "torch3 burns out." in read["exploration"]  # its 6 turns are up
    assert "Sparks on the Stealth check: 1" in read["trespasser"]
    assert "is above the alarm" in read["trespasser"]
    assert "gains a condition: exhausted" in read["travel-turn"]
    assert "with disadvantage" in read["travel-turn"]
    assert "every crawling round now" in read["shadowdark"]  # total darkness is deadly
    assert "Distance: close." in read["shadowdark"]
    assert "Reaction check: 2d6+2 [8] +2 = 10 (table dice) → Curious" in read["shadowdark"]
    assert "CON check, rest interrupted for Bo (DC 12)" in read["shadowdark"]
    assert "Ash completes a rest: all hit points back" in read["shadowdark"]
    assert "torch3 burns out." in read["shadowdark"]  # ten rounds without real time
    assert "Reaction, Ari's CHA: 2d6+2 [5, 4] +2 = 11" in read["basic-fantasy"]
    assert (
        "Surprise (the monsters): d6 [2] = 2 (table dice) → Monsters surprised"
        in read["basic-fantasy"]
    )
    assert "torch3 has 8 turns left (rolled 1d4+4: 8 turns)." in read["basic-fantasy"]
    assert "Morningstar loses 1 HP (hunger)" in read["basic-fantasy"]
    assert "d6 with advantage [1, 5] keep 5 = 5 (table dice) → Encounter sign" in read["errant"]
    assert "Rest or Exhaustion: exhaustion (the party's choice)" in read["errant"]
    assert (
        "Exhaustion: 2 for Ash and Cob, 3 for Bryn (more than four travel turns of "
        "peregrinating today)." in read["errant"]
    )
    assert "Cob: Exhaustion 4 (a travel turn's watch kept alone)." in read["errant"]
    assert "Cob fails, 1 (above 2 and at most PHYS 11 succeeds)." in read["errant"]
    assert "Cob: Exhaustion 6 (starving)." in read["errant"]
    assert "Weather is now inclement (season)." in read["errant"]  # winter's sleet
    assert "Exhaustion: 3 for Ash, 4 for Bryn, 5 for Cob (severe weather)." in read["errant"]
    assert (
        "Exhaustion: 1 for Ash, 2 for Bryn, 4 for Cob (a night's Rest on a beautiful day)."
        in read["errant"]
    )
    assert "Encounter! No watch, or an open campsite: the sign is an encounter." in read["errant"]
    assert "Negative Event Die owed is now next-turn (the Company rests)." in read["errant"]
    assert "torch2 goes out at strike 2." in read["errant"]
    assert "Ash: Supply -1 → 4 (Burn with no lit light)." in read["errant"]
    assert "Encounter roll: d6 [2] = 2 (table dice) → Omen" in read["mausritter"]
    saved = "STR save against the weather: Bryn fails, 14 (at most STR 9 succeeds)."
    assert saved in read["mausritter"]
    assert "Hour of the encounter: d12 [3] = 3" in read["mausritter"]
    assert "Bryn and Cob gain a condition: hungry (The day ends)." in read["mausritter"]
    assert "torch2: burned 3 h (18 exploration turns), burnt out" in read["mausritter"]


@pytest.mark.long
def test_the_basic_fantasy_session_plays_the_same_through_the_command_line(home: Path) -> None:
    """The script typed into one `delvetui act NAME -`, as a game master pipes a session
    in: the same turns, clock, party and lights as played in-process, and the same log."""
    script = SCRIPTS["basic-fantasy"]
    state, text = cli_played(home, "basic-fantasy", "basic-fantasy", script, seed=40)
    with played(home / "in-process", "basic-fantasy") as made:
        expected = made.state
    assert (state["turn"], state["day"], state["clock"]) == (40, 4, "11:40")
    assert (state["turn"], state["minutes"]) == (expected.turn, expected.minutes)
    assert {m["name"]: m["hp"] for m in state["party"]} == {m.name: m.hp for m in expected.party}
    assert {light["id"]: light["lit"] for light in state["lights"]} == {
        light.id: light.lit for light in expected.lights
    }
    example = " ".join((EXAMPLES / "basic-fantasy.txt").read_text(encoding="utf-8").split())
    for line in (
        "Reaction, Morningstar's CHA: 2d6 [3] = 3 (table dice) → Unfavorable",
        "lantern1 has 20 turns left (rolled 1d6+18: 20 turns).",
        "Morningstar: Days without food 3 (no food).",
    ):
        assert line in " ".join(text.split()) and line in example


def test_the_cairn_examples_tell_the_texts_rules() -> None:
    """What the Cairn texts are known for reads in their examples, as the ledgers say."""
    cairn = " ".join((EXAMPLES / "cairn.txt").read_text(encoding="utf-8").split())
    assert "Fatigue: 2 for both (Make Camp skipped). Both gain a condition: deprived" in cairn
    assert "The weather's toll: fatigue (the party's choice)" in cairn
    assert "Exhaustion: ration (the party's choice)" in cairn
    assert "torch1 goes out at strike 3." in cairn
    assert "The party: Oil cans -1 → 0 (a can of oil for lantern1)." in cairn
    assert "The party switches to: dungeon cycle." in cairn
    assert "The party switches to: watch." in cairn
    # Ash rests deprived at cycle 10 and heals nothing; rested at cycle 33, all of it.
    rest = cairn[cairn.index("Dungeon cycle 10 ") : cairn.index("Dungeon cycle 11 ")]
    assert "regains" not in rest
    assert "Ash regains 4 HP (a turn's rest); now 4 HP." in cairn
    modular = " ".join((EXAMPLES / "cairn-modular.txt").read_text(encoding="utf-8").split())
    noise = modular[modular.index("Dungeon turn 3 ") : modular.index("Dungeon turn 4 ")]
    assert "Loaded encounter die: d6 [4] = 4 (table dice) → Exhaustion" in noise
    camp = modular[modular.index("Wilderness turn 24 ") : modular.index("Wilderness turn 25 ")]
    assert "Hours without sleep 0" not in camp  # one camp turn is not a night's sleep
    assert "Hours without sleep: 0 for both (Camp)." in modular


#: The sessions also played as a game master would through the command line: one
#: `delvetui act NAME -` reading every command.
CLI_SCRIPTS = ("cairn", "cairn-modular")


def undated(text: str) -> str:
    """The export without the dates of the day it was made (and their headings' rules)."""
    text = re.sub(r"\w+day \d{1,2} \w+ \d{4}", "DATE", text)
    return re.sub(r"^([-=#])\1+$", "RULE", text, flags=re.MULTILINE)


@pytest.mark.long
@pytest.mark.parametrize("procedure_id", CLI_SCRIPTS)
def test_the_session_played_through_the_command_line_tells_the_same(
    home: Path, procedure_id: str
) -> None:
    """`delvetui new`, then the script on one `delvetui act NAME -`: the same state and the
    same exported text as the example (but for the day it was played)."""
    made = delvetui(home, "new", procedure_id, "--procedure", procedure_id, "--seed", "40")
    assert made.returncode == 0, made.stderr
    script = "\n".join(SCRIPTS[procedure_id]) + "\n"
    act = delvetui(home, "act", procedure_id, "-", stdin=script)
    assert act.returncode == 0, act.stderr
    assert act.stdout.count("\n") == len(SCRIPTS[procedure_id])
    status = json.loads(delvetui(home, "status", procedure_id, "--json").stdout)
    assert status["turn"] == 40
    exported = delvetui(home, "export", procedure_id, "--format", "txt")
    assert exported.returncode == 0, exported.stderr
    example = (EXAMPLES / f"{procedure_id}.txt").read_text(encoding="utf-8")
    assert undated(exported.stdout) == undated(example)
