import { stem } from './text';

// Small hand-made thesaurus so the lexical fallback still meets paraphrases ("quit" finds "resigned").
// Each line is one group of words that can stand for each other in a search query.
const SYNONYM_GROUPS = `
quit resign resigned leave left walked-away stepped-down
job work career position role employer office company firm
boss manager supervisor
money cash dollars income salary pay paycheck savings wealth fortune
rich wealthy millionaire
poor broke debt
buy purchase bought
sell sold selling
price cost expensive cheap afford
car vehicle truck automobile drive driving
bike bicycle cycling ride
house home apartment flat place
city town downtown neighborhood
food meal dish eat eating ate cooking cook recipe
vegetable vegetables greens herbs
doctor physician hospital clinic nurse
sick ill illness disease cancer diagnosis
health healthy fitness exercise workout training gym
run running jog jogging marathon race
sleep asleep sleeping rest tired exhausted insomnia
afraid scared fear fright terrified anxious anxiety nervous panic
sad depressed cry cried crying tears grief heartbroken
happy glad joy joyful thrilled delighted
angry furious mad rage
mistake error failure failed failing wrong regret
succeed success successful win won victory achieve achievement
start started begin began launch launched found founded
startup business venture company
customer customers client clients user users buyer
investor investors funding fund raise raised capital venture
product app software tool platform
code coding program programming developer engineer engineering
computer laptop machine
phone smartphone mobile
learn learning study studying school education teach teacher student class lesson
kid kids child children son daughter baby
parent parents mother mom father dad family
wife husband spouse partner marriage married wedding
friend friends buddy pal
dog puppy pet cat kitten
travel trip journey vacation holiday flight fly plane airport abroad
ocean sea beach coast water swim swimming
mountain hill hike hiking climb climbing
weather rain storm snow wind sunny
garden gardening plant plants grow growing soil seed seeds
water watering hydrate drink
fix repair mend broken break
fast quick quickly speed rapid
slow slowly
big huge large massive enormous giant
small tiny little
important crucial essential key vital
secret trick tip hack advice
problem issue trouble challenge difficulty struggle
idea concept plan
talk speak speech conversation discuss said told tell
write writing wrote book author novel
read reading
music song songs band guitar piano sing singing
movie film cinema
game games play playing
team teammates colleagues coworkers staff employees
hire hiring hired recruit
fire fired layoff laid-off
time hours minutes schedule
morning breakfast dawn early
night evening late
old older age aging elderly
young younger youth teenager
die died death dead passed funeral
love loved loving adore
hate hated despise
lie lied lying dishonest
truth honest honesty true
change changed transform transformation
habit habits routine
focus concentrate attention distracted distraction
stress stressed pressure overwhelmed burnout
meditation meditate mindfulness calm
coffee caffeine espresso
weight fat diet lose losing
grandmother grandma grandfather grandpa grandparents
store shop storing keep keeping preserve
fridge refrigerator freezer cold
tire tyre wheel puncture flat
battery charge charging power
save saving saved
lost losing lose
free gratis
house mortgage rent renting landlord
`;

const synonymsByStem = new Map<string, Set<string>>();

for (const line of SYNONYM_GROUPS.trim().split('\n')) {
  const stems = [
    ...new Set(
      line
        .trim()
        .split(/\s+/)
        .map((word) => stem(word.replace(/-/g, ''))),
    ),
  ];
  for (const s of stems) {
    let set = synonymsByStem.get(s);
    if (!set) synonymsByStem.set(s, (set = new Set()));
    for (const other of stems) if (other !== s) set.add(other);
  }
}

/** Stems that may stand for the given stem in a query (not including itself). */
export function synonymsOf(termStem: string): string[] {
  return [...(synonymsByStem.get(termStem) ?? [])];
}
