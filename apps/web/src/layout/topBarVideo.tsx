import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** The facts the top bar's video hover card shows; the video's pages provide them. */
export interface TopBarVideo {
  title: string;
  thumbnail?: string | null;
  /** seconds */
  duration?: number | null;
  channel?: string | null;
  viewCount?: number | null;
  platform?: string | null;
  /** seconds since the epoch */
  publishedAt?: number | null;
}

interface TopBarVideoState {
  video: TopBarVideo | null;
  setVideo(video: TopBarVideo | null): void;
}

const TopBarVideoContext = createContext<TopBarVideoState>({ video: null, setVideo: () => {} });

export function TopBarVideoProvider({ children }: { children: ReactNode }) {
  const [video, setVideo] = useState<TopBarVideo | null>(null);
  return <TopBarVideoContext value={{ video, setVideo }}>{children}</TopBarVideoContext>;
}

export function useTopBarVideoState(): TopBarVideoState {
  return useContext(TopBarVideoContext);
}

/** A moment or job page calls this with its video so the top bar shows its title. */
export function useTopBarVideo(video: TopBarVideo | null): void {
  const { setVideo } = useContext(TopBarVideoContext);
  useEffect(() => {
    setVideo(video);
    return () => setVideo(null);
  }, [video, setVideo]);
}
