import { Badge, Card, Group, List, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { describePlan } from '../../account/plan';
import { useSession } from '../../account/session';

/** spec §2 plan page frame: the monthly/yearly toggle (type=monthly|yearly). Plans come later. */
export function PlanSettings() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const period = params.get('type') === 'monthly' ? 'monthly' : 'yearly';
  return (
    <Stack gap="lg">
      <Card p="xl">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text c="dimmed" size="sm">
              Current plan
            </Text>
            <Title order={3}>{describePlan(user?.subscription.current_plan)}</Title>
          </Stack>
          <SegmentedControl
            value={period}
            onChange={(value) =>
              setParams(
                (prev) => {
                  prev.set('type', value);
                  return prev;
                },
                { replace: true },
              )
            }
            data={[
              { label: 'Monthly', value: 'monthly' },
              { label: 'Yearly · save 50%', value: 'yearly' },
            ]}
          />
        </Group>
      </Card>
      <Card p="xl">
        <Group gap="xs" mb="sm">
          <Title order={4}>{period === 'yearly' ? 'Yearly plans' : 'Monthly plans'}</Title>
          <Badge variant="light" color="gray">
            Coming in an upcoming release
          </Badge>
        </Group>
        <Text c="dimmed" mb="md">
          Plan cards, checkout, upgrades and invoices are being built. This page will hold:
        </Text>
        <List spacing="xs" size="sm">
          <List.Item>Free, Standard, Pro and Pro plus plans, plus an education variant</List.Item>
          <List.Item>Enterprise plans through a contact form</List.Item>
          <List.Item>Upgrading, cancelling and resuming your subscription</List.Item>
          <List.Item>Your invoices and payment method</List.Item>
        </List>
      </Card>
    </Stack>
  );
}
