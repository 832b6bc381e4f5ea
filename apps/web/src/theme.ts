import { createTheme, type CSSVariablesResolver } from '@mantine/core';

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

/**
 * Mantine's default dimmed grey (gray.6) is below the WCAG AA contrast ratio on white and on the
 * gray.0 page background; gray.7 passes, so secondary text stays readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
