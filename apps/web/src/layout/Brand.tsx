import { Anchor, Group, Text, ThemeIcon } from '@mantine/core';
import { IconPlayerPlayFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BRAND_NAME } from '../config';
import { t } from '../messages/catalogue';

export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Anchor
      component={Link}
      to="/home"
      underline="never"
      c="inherit"
      aria-label={t('layout.brandHome', { brand: BRAND_NAME })}
    >
      <Group gap={8} wrap="nowrap">
        <ThemeIcon
          size={compact ? 28 : 32}
          radius="md"
          variant="gradient"
          gradient={{ from: 'violet.6', to: 'grape.5', deg: 135 }}
        >
          <IconPlayerPlayFilled size={compact ? 14 : 16} />
        </ThemeIcon>
        {!compact && (
          <Text fw={800} fz="lg" style={{ letterSpacing: -0.3 }}>
            {BRAND_NAME}
          </Text>
        )}
      </Group>
    </Anchor>
  );
}
