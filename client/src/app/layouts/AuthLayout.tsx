import { Text } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { BrandMark, PRODUCT_NAME } from '../../shared/ui/BrandMark';
import classes from './AuthLayout.module.css';

/** Layout of the public routes: the product mark above a centred card on a quiet background. */
export function AuthLayout() {
  return (
    <div className={classes.root}>
      <main className={classes.main}>
        <BrandMark />
        <div className={classes.content}>
          <Outlet />
        </div>
      </main>
      <footer className={classes.footer}>
        <Text size="xs" c="dimmed">
          {PRODUCT_NAME} · administration for tutoring and alternative provision
        </Text>
      </footer>
    </div>
  );
}
