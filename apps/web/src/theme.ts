import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Modal: { defaultProps: { centered: true, radius: 'lg' } },
    Card: { defaultProps: { radius: 'lg', withBorder: true } },
  },
});

/** Below this width the mobile layout with the bottom menu is used (spec §1 "Layouts"). */
export const MOBILE_MEDIA_QUERY = '(max-width: 47.99em)';
