import { Badge, Card, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The frame of a page whose content arrives in a later issue: it says what the page will hold,
 * without inventing data.
 */
export function PlannedPage({
  icon,
  title,
  description,
  features,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  features?: string[];
  children?: ReactNode;
}) {
  return (
    <Stack maw={760} mx="auto" gap="lg" py="md">
      <Card p="xl">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light">
            {icon}
          </ThemeIcon>
          <Title order={2}>{title}</Title>
          <Text c="dimmed" maw={520}>
            {description}
          </Text>
          <Badge variant="light" color="gray">
            Coming in an upcoming release
          </Badge>
        </Stack>
        {features && features.length > 0 && (
          <List
            mt="xl"
            spacing="sm"
            center
            icon={
              <ThemeIcon size={22} radius="xl" variant="light" color="teal">
                <IconCircleCheck size={14} />
              </ThemeIcon>
            }
          >
            {features.map((feature) => (
              <List.Item key={feature}>
                <Text size="sm">{feature}</Text>
              </List.Item>
            ))}
          </List>
        )}
      </Card>
      {children}
    </Stack>
  );
}
