import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';

import { Icon } from '@/components/ui/icons';
import { paths, withLinkToken } from '@/config/paths';
import { site } from '@/config/site';
import { isAdmin } from '@/lib/session/types';
import { useLogout, useSession } from '@/lib/session/session';

function Logo() {
  return (
    <>
      <span className="brand-mark me-2" aria-hidden>
        <Icon name="chat" size={18} />
      </span>
      <span className="fw-bold">{site.name}</span>
    </>
  );
}

/** Header of docs/product.md, Screens: logo, main links, auth buttons; a burger menu on narrow screens. */
export function SiteHeader() {
  const { token, user } = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const linkToken = searchParams.get('link_token');
  // The burger menu closes on every navigation: keyed by the location it was opened at.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const expanded = openedAt === location.key;
  const close = () => setOpenedAt(null);

  // Home first, synchronously: signed out on /dashboard, its guard would send the user to /login.
  function onLogout() {
    close();
    navigate(paths.home, { flushSync: true });
    logout.mutate();
  }

  // `end`: marked only on its own address; the chat stays marked on /chat/{id} too.
  const link = (to: string, label: string, className = '', end = true) => (
    <Nav.Link as={NavLink} to={to} end={end} onClick={close} className={className}>
      {label}
    </Nav.Link>
  );

  // The banner landmark holds the site's navigation; it is what sticks to the top.
  return (
    <header className="sticky-top">
      <Navbar
        expand="lg"
        className="site-header bg-body border-bottom"
        expanded={expanded}
        onToggle={(next) => setOpenedAt(next ? location.key : null)}
      >
        <Container>
          <Navbar.Brand as={Link} to={paths.home} onClick={close} className="d-flex align-items-center">
            <Logo />
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="site-nav" label="Меню" />
          <Navbar.Collapse id="site-nav">
            <Nav className="me-auto">
              {link(paths.pricing, 'Тарифы')}
              {link(paths.faq, 'FAQ')}
              {link(paths.articles, 'Статьи')}
              {token && link(paths.chat, 'Чат', '', false)}
              {link(paths.offer, site.offerTitle, 'd-lg-none')}
              {link(paths.privacy, site.privacyTitle, 'd-lg-none')}
            </Nav>
            <div className="header-actions d-flex flex-column flex-lg-row gap-2 py-2 py-lg-0">
              {token ? (
                <>
                  <Link to={paths.dashboard} className="btn btn-outline-primary" onClick={close}>
                    <Icon name="user" size={18} className="me-1" />
                    Личный кабинет
                  </Link>
                  {isAdmin(user) && (
                    <Link to={paths.admin.root} className="btn btn-outline-secondary" onClick={close}>
                      <Icon name="shield" size={18} className="me-1" />
                      Админка
                    </Link>
                  )}
                  <Button variant="link" className="text-body-secondary text-decoration-none" onClick={onLogout}>
                    <Icon name="logout" size={18} className="me-1" />
                    Выйти
                  </Button>
                </>
              ) : (
                <>
                  <Link to={withLinkToken(paths.login, linkToken)} className="btn btn-outline-primary" onClick={close}>
                    Войти
                  </Link>
                  <Link to={withLinkToken(paths.register, linkToken)} className="btn btn-primary" onClick={close}>
                    Регистрация
                  </Link>
                </>
              )}
            </div>
          </Navbar.Collapse>
        </Container>
      </Navbar>
    </header>
  );
}
