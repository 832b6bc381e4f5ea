import { Stack, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ComponentType, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { t, type MessageKey } from '../messages/catalogue';
import { MOBILE_MEDIA_QUERY } from '../theme';

export interface RouteTab {
  label: MessageKey;
  icon: ComponentType<{ size?: number }>;
}

/**
 * A titled page whose tabs are route segments (/library/{tab}, /settings/{tab}): the tab
 * bar navigates to `${basePath}/${tab}` and the children show the current tab.
 */
export function RouteTabsPage<Tab extends string>(props: {
  title: string;
  basePath: string;
  tabs: readonly Tab[];
  content: Record<Tab, RouteTab>;
  current: Tab;
  maxWidth: number;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  // On a phone the tabs stay one row (they wrapped onto two): no icons, tighter padding, and a
  // sideways scroll rather than a wrap if a longer label still does not fit.
  const phone = useMediaQuery(MOBILE_MEDIA_QUERY) ?? false;
  return (
    <Stack maw={props.maxWidth} mx="auto" gap="lg">
      <Title order={1} size="h2">
        {props.title}
      </Title>
      <Tabs
        value={props.current}
        onChange={(next) => next && void navigate(`${props.basePath}/${next}`)}
        styles={{
          list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' },
          tab: phone ? { flexShrink: 0, paddingInline: 'var(--mantine-spacing-xs)' } : undefined,
        }}
      >
        <Tabs.List>
          {props.tabs.map((key) => {
            const { label, icon: Icon } = props.content[key];
            return (
              <Tabs.Tab key={key} value={key} leftSection={phone ? undefined : <Icon size={16} />}>
                {t(label)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
      </Tabs>
      {props.children}
    </Stack>
  );
}
