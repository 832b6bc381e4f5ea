/** What the search/ screens say (keys `search.*`). */
export const SEARCH_MESSAGES = {
  'search.box.placeholder': 'Search shared moments and your videos',
  'search.noQuery': 'Type a few words to search shared moments and your videos.',
  'search.logIn': 'Log in',
  'search.results.title': 'Results for “{query}”',
  // "Showing shared moments. [Log in] to search your own videos too."
  'search.results.visitor': 'Showing shared moments.',
  'search.results.visitorAfterLink': 'to search your own videos too.',
  'search.results.loadMore': 'Load more',
  'search.empty.title': 'Nothing matches “{query}”',
  'search.empty.signedIn':
    'No shared moment and none of your videos mention it. Try other words, or paste a video link to find its moments.',
  'search.empty.visitor':
    'No shared moment mentions it. Try other words, or log in to search your own videos too.',
  'search.empty.addVideo': 'Add a video',
  'search.hit.moment': 'Moment',
  'search.hit.ownVideo': 'Your video',
  'search.hit.fromVideo': 'from {title}',
  'search.hit.moreMoments': 'More moments of this video',
  'search.hit.momentAt': '{title}, at {time}',
  'search.shared.title': 'Shared moments',
} as const;
