/** What the search box should do with its text: search keywords, or open a video link. */
export function searchTarget(text: string): string | null {
  const value = text.trim();
  if (!value) return null;
  if (/^https?:\/\/\S+$/i.test(value))
    return `/search/result/video/result?url=${encodeURIComponent(value)}`;
  return `/search/result?query=${encodeURIComponent(value)}`;
}
