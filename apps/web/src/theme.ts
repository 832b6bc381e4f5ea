import { createTheme, type CSSVariablesResolver } from '@mantine/core';
import { t } from './messages/catalogue';

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
    // Every dialog's close button says what it does (axe: buttons need a name).
    // A dialog's title bar is no page banner (axe landmark-no-duplicate-banner next to the header).
    Modal: {
      defaultProps: {
        centered: true,
        radius: 'lg',
        closeButtonProps: { 'aria-label': t('common.close') },
        attributes: { header: { role: 'group' } },
      },
    },
    Card: { defaultProps: { radius: 'lg', withBorder: true } },
    // A link inside a sentence must not rely on colour alone (WCAG 1.4.1, axe link-in-text-block).
    Anchor: { defaultProps: { underline: 'always' } },
  },
});

/** Below this width the mobile layout with the bottom menu is used (the web layout above it). */
export const MOBILE_MEDIA_QUERY = '(max-width: 47.99em)';

/**
 * Mantine's default dimmed grey (gray.6) is below the WCAG AA contrast ratio on white and on the
 * gray.0 page background; gray.7 passes, so secondary text stays readable. The same for errors.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Field errors (red.6 by default) fall below 4.5:1 on white; red.8 passes.
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: {},
});
