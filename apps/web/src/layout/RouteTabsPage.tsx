import { Stack, Tabs, Title } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { t, type MessageKey } from '../messages/catalogue';

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
  return (
    <Stack maw={props.maxWidth} mx="auto" gap="lg">
      <Title order={1} size="h2">
        {props.title}
      </Title>
      <Tabs
        value={props.current}
        onChange={(next) => next && void navigate(`${props.basePath}/${next}`)}
      >
        <Tabs.List>
          {props.tabs.map((key) => {
            const { label, icon: Icon } = props.content[key];
            return (
              <Tabs.Tab key={key} value={key} leftSection={<Icon size={16} />}>
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
