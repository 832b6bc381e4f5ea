/**
 * Strong segments planted into ordinary talk; tests check that moment finding ranks them on top.
 * Written as a person tells such things, not from the judge's cue lists (the earlier
 * passages used the lists' own phrases: "turns out", "nobody tells you", "I have to confess").
 */
export const PLANTED_STORY = [
  'On my twenty-first birthday my uncle handed me the keys to his old pickup.',
  'The first job I took on was the oil, with a borrowed jack and a video on my phone.',
  'I drained a red liquid into a washing-up bowl and poured five litres of fresh oil in at the top.',
  'Then I started the engine and every light on the dashboard came on at once.',
  'The red liquid was the transmission fluid, and the engine now held twice the oil it should.',
  'My uncle laughed so hard he had to sit down on the kerb.',
  'He paid for the tow truck, and I paid him back with a year of Saturdays at his garage.',
];

export const PLANTED_CLAIM = [
  'Put aside five dollars a day and by December you will have more than eighteen hundred.',
  'Leave that in an index fund for thirty years at seven percent and it grows to almost two hundred thousand dollars.',
  'Two hundred thousand, from the price of a sandwich.',
  'Most people wait until they earn more before they begin, and the waiting costs them more than anything they buy.',
  'Begin with whatever you have this week, even if it is one dollar.',
];

export const PLANTED_CONFESSION = [
  'When my father was in hospital, I stopped going to see him after the second week.',
  'I told my family I was busy at work.',
  'I could not stand seeing him so thin, with the tubes in his arms.',
  'Most nights I sat in the car park with the engine off and cried until the lights in his ward went out.',
  'He died in February, and the last time we spoke was on the phone, about the football.',
  'Some of you have parents you keep meaning to call.',
  'Call them this week.',
];

/** A founder-flavoured passage that an `actAs: 'a startup founder'` run should lift. */
export const PLANTED_FOUNDER = [
  'When we were raising our first round, we pitched forty investors and thirty-eight of them said no.',
  'The two who said yes cared about one thing, paying customers.',
  'Once we had real revenue, the funding conversations got much easier.',
  'The lesson was that customers matter more than investors for a young startup.',
];

/** Topical passages and a paraphrased question for each, for search recall. */
export const SEARCH_PASSAGES: { id: string; query: string; sentences: string[] }[] = [
  {
    id: 'bike-patch',
    query: 'how do I repair a punctured bike wheel',
    sentences: [
      'My neighbor showed me how to patch the inner tube on my bicycle.',
      'You pull the tube out, dunk it in a bowl of water and look for the bubbles.',
      'Then you rough up the rubber, spread a little glue and press the patch on for a minute.',
      'It has held up for the whole summer.',
    ],
  },
  {
    id: 'herbs',
    query: 'keeping parsley and basil from wilting',
    sentences: [
      'The trick with fresh herbs is to treat them like a bunch of flowers.',
      'Trim the stems and stand them in a glass of water on the counter.',
      'Some can go in the fridge with a bag over them, but the delicate ones turn black in the cold.',
      'They stay green for well over a week that way.',
    ],
  },
  {
    id: 'quit-bank',
    query: 'why did you leave your finance career',
    sentences: [
      'Three years ago I handed in my notice at the bank.',
      'The salary was good, but I dreaded every single Monday.',
      'I took the savings I had and opened a little bakery on the high street.',
      'It is harder work, but I wake up happy now.',
    ],
  },
  {
    id: 'sleep',
    query: 'tips for insomnia',
    sentences: [
      'For years I could not fall asleep before two in the morning.',
      'What helped was putting the phone in another room and getting up at the same hour every day, weekends included.',
      'No screens for an hour before bed.',
      'After a month I was dozing off by eleven.',
    ],
  },
  {
    id: 'italian',
    query: 'how to pick up a foreign tongue quickly',
    sentences: [
      'I got my Italian to a decent level in about a year.',
      'Twenty minutes every morning with flashcards, and then I watched cartoons in Italian with subtitles.',
      'The real jump came when I started chatting with a tutor online twice a week.',
    ],
  },
  {
    id: 'puppy-lead',
    query: 'teaching a young dog to walk nicely on a leash',
    sentences: [
      'Our puppy used to pull on the lead so hard that my shoulder hurt.',
      'The trainer told us to stop walking the moment the lead goes tight, and only move again when it goes slack.',
      'It took about two weeks of very slow walks, but now she trots beside me.',
    ],
  },
  {
    id: 'marathon',
    query: 'finishing a long distance race later in life',
    sentences: [
      'I ran my first marathon at forty-five.',
      'Before that I had never run more than five kilometers.',
      'The training plan was sixteen weeks, four runs a week, with one long slow run on Sundays.',
      'I finished in just under five hours and could barely walk the next day.',
    ],
  },
  {
    id: 'debt',
    query: 'getting rid of what we owed on credit cards',
    sentences: [
      'We had about twelve thousand in balances on our cards.',
      'We cut them up and lived on cash for a year, with envelopes for groceries, fuel and fun.',
      'We cleared the smallest balance first, then rolled that money into the next one.',
    ],
  },
  {
    id: 'stage-fright',
    query: 'overcoming nerves before presenting to an audience',
    sentences: [
      'Speaking in front of a crowd used to make my hands shake.',
      'A coach told me to rehearse out loud ten times, standing up, with a timer.',
      'She also said to look at one friendly face at a time instead of the whole room.',
    ],
  },
  {
    id: 'japan',
    query: 'relocating overseas without knowing the language',
    sentences: [
      'When we moved to Japan we did not speak a word of Japanese.',
      'The hardest part was the paperwork at the ward office.',
      'Our neighbors helped us fill in the forms and even showed us how to sort the rubbish.',
    ],
  },
  {
    id: 'houseplants',
    query: 'why do my indoor plants keep dying',
    sentences: [
      'I kept killing my houseplants until I saw I was overdoing it with the watering can.',
      'Now I stick a finger into the soil and only pour when it feels dry two knuckles down.',
      'The fern on my desk is thriving.',
    ],
  },
  {
    id: 'coffee',
    query: 'reducing caffeine intake',
    sentences: [
      'I used to drink six cups of coffee a day.',
      'I cut down to one cup in the morning and swapped the rest for herbal tea.',
      'The first week I had headaches, but after that my afternoons felt much calmer.',
    ],
  },
  {
    id: 'salary',
    query: 'asking an employer for a better pay offer',
    sentences: [
      'When they offered me the job, I asked for fifteen percent more than their number.',
      'I brought figures from three other companies for the same role.',
      'They came back with ten percent and an extra week of holiday.',
    ],
  },
  {
    id: 'dumplings',
    query: 'a family dish passed down from grandma',
    sentences: [
      'My grandmother made dumplings every New Year.',
      'She never wrote the recipe down, so last winter I stood next to her and measured everything she did.',
      'The secret was a spoonful of cold butter in the dough.',
    ],
  },
  {
    id: 'lost-hike',
    query: 'what to do when you lose your way in the mountains',
    sentences: [
      'We got lost on a hike in the hills once.',
      'The trail markers disappeared in the fog and our phones had no signal.',
      'We followed the stream downhill, which my dad always said to do, and reached a village by dark.',
    ],
  },
  {
    id: 'screen-time',
    query: 'limiting how long children spend on devices',
    sentences: [
      'Our kids were on tablets for hours every evening.',
      'We made a rule, no screens until homework is done, and only one hour on school nights.',
      'At first there were tantrums, but now they read and play outside more.',
    ],
  },
  {
    id: 'battery',
    query: 'making a smartphone charge last longer',
    sentences: [
      'My phone battery used to die by lunchtime.',
      'I turned off background refresh, lowered the brightness and stopped apps from tracking my location all the time.',
      'Now it lasts until bedtime with plenty to spare.',
    ],
  },
  {
    id: 'fundraising',
    query: 'how did your company get investment',
    sentences: PLANTED_FOUNDER,
  },
];
