import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface LegalSection {
  heading: string;
  body: ReactNode;
}

export function LegalPage({
  title,
  summary,
  sections,
}: {
  title: string;
  summary: string;
  sections: LegalSection[];
}) {
  return (
    <Stack maw={760} mx="auto" py="md">
      <Card p={{ base: 'lg', sm: 40 }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={32}>
              {title}
            </Title>
            <Text c="dimmed">{summary}</Text>
          </Stack>
          {sections.map(({ heading, body }) => (
            <Stack key={heading} gap={6}>
              <Title order={2} fz="lg">
                {heading}
              </Title>
              <Text component="div" lh={1.65}>
                {body}
              </Text>
            </Stack>
          ))}
        </Stack>
      </Card>
    </Stack>
  );
}
