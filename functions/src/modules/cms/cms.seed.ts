import type { SeedContext } from '../../platform/core/module/maintenance';
import type { Publisher } from '../../platform/kits/publishing/publishing';
import { appConfigs } from './cms.app-config';
import { bannerKind, pageKind, sectionKind } from './cms.kinds';
import type { AppConfigContent, BannerContent, CmsLink, CmsSurface, PageContent, SectionContent } from './cms.schemas';

// The operators' demo content (emulator only), published by the local administrator through the publishing kit (so
// each has its version and audit lines): banners and home sections for the three apps, targeted at Ho Chi Minh City
// and Hanoi; terms, privacy and FAQ pages; each app's config. The images are Hosting's demo files (openapi/demo/cms).
// Fixed ids: a second run finds them and publishes nothing new.

const IMAGE_BASE = 'http://127.0.0.1:5000/demo/cms';
const image = (name: string) => ({ id: `seed-${name}`, url: `${IMAGE_BASE}/${name}.svg` });
const text = (vi: string, en: string) => ({ vi, en });
const screen = (tab: string, name: string, params: Record<string, string> = {}): CmsLink => ({ type: 'DEEP_LINK', tab, screen: name, params });

type Schedule = (cities: string[], order: number) => { cities: string[]; startsAt: number; endsAt: null; order: number };

function demoBanners(schedule: Schedule): Record<string, BannerContent> {
  const banner = (
    surface: CmsSurface,
    title: [string, string],
    subtitle: [string, string],
    img: string,
    link: CmsLink,
    cities: string[],
    order: number,
  ): BannerContent => ({
    surface,
    title: text(...title),
    subtitle: text(...subtitle),
    image: image(img),
    link,
    ...schedule(cities, order),
  });
  return {
    'seed-banner-ride-hcm': banner(
      'CON',
      ['Giảm 50% chuyến xe đầu tiên', '50% off your first ride'],
      ['Nhập mã FIRST50 khi đặt xe', 'Use code FIRST50 when you book'],
      'ride',
      screen('RideTab', 'Book', { promo: 'FIRST50' }),
      ['HO_CHI_MINH'],
      10,
    ),
    'seed-banner-food-hn': banner(
      'CON',
      ['Phở nóng giao tận nơi', 'Hot phở delivered'],
      ['Miễn phí giao hàng cho đơn từ 100.000đ', 'Free delivery from 100,000 VND'],
      'food',
      screen('FoodTab', 'Home'),
      ['HA_NOI'],
      10,
    ),
    'seed-banner-wallet': banner(
      'CON',
      ['Nạp ví, nhận hoàn tiền 5%', 'Top up, get 5% back'],
      ['Áp dụng đến hết tháng', 'Until the end of the month'],
      'wallet',
      screen('WalletTab', 'TopUp'),
      [],
      20,
    ),
    'seed-banner-driver-bonus': banner(
      'DRV',
      ['Thưởng 200.000đ cuối tuần', '200,000 VND weekend bonus'],
      ['Hoàn thành 30 chuyến từ thứ Sáu đến Chủ nhật', 'Complete 30 trips Friday to Sunday'],
      'ride',
      screen('HomeTab', 'Incentives'),
      [],
      10,
    ),
    'seed-banner-partner-ads': banner(
      'PAR',
      ['Quảng bá cửa hàng của bạn', 'Promote your store'],
      ['Xuất hiện đầu trang chủ trong 7 ngày', 'Top of the home screen for 7 days'],
      'food',
      { type: 'URL', url: 'https://partners.superapp.vn/ads' },
      [],
      10,
    ),
  };
}

function demoSections(schedule: Schedule): Record<string, SectionContent> {
  const item = (title: [string, string], tab: string, name: string) => ({ title: text(...title), subtitle: null, image: null, link: screen(tab, name) });
  return {
    'seed-section-services': {
      surface: 'CON',
      type: 'SHORTCUTS',
      title: text('Dịch vụ', 'Services'),
      items: [
        item(['Đặt xe', 'Rides'], 'RideTab', 'Book'),
        item(['Đồ ăn', 'Food'], 'FoodTab', 'Home'),
        item(['Khách sạn', 'Hotels'], 'BookingTab', 'Hotels'),
        item(['Khám bệnh', 'Doctors'], 'BookingTab', 'Clinics'),
      ],
      ...schedule([], 1),
    },
    'seed-section-deals': {
      surface: 'CON',
      type: 'CARDS',
      title: text('Ưu đãi hôm nay', 'Today’s deals'),
      items: [
        {
          title: text('Cơm tấm giảm 30%', '30% off broken rice'),
          subtitle: text('Quận 1 và Quận 3', 'Districts 1 and 3'),
          image: image('food'),
          link: screen('FoodTab', 'Home'),
        },
        {
          title: text('Khách sạn ven sông', 'Riverside hotels'),
          subtitle: text('Từ 850.000đ/đêm', 'From 850,000 VND a night'),
          image: image('ride'),
          link: screen('BookingTab', 'Hotels'),
        },
      ],
      ...schedule(['HO_CHI_MINH'], 2),
    },
  };
}

function demoPages(): Record<string, PageContent> {
  const faq = (q: [string, string], a: [string, string]) => ({ question: text(...q), answer: text(...a) });
  return {
    terms: {
      title: text('Điều khoản sử dụng', 'Terms of use'),
      body: text(
        'Khi dùng ứng dụng, bạn đồng ý với các điều khoản này. Chuyến xe, đơn hàng và đặt chỗ được thanh toán bằng tiền mặt, ví hoặc cổng thanh toán. Bạn chịu trách nhiệm về thông tin tài khoản của mình.',
        'By using the app you accept these terms. Rides, orders and bookings are paid in cash, from the wallet or through a payment gateway. You are responsible for your account details.',
      ),
      faq: [],
    },
    privacy: {
      title: text('Chính sách quyền riêng tư', 'Privacy policy'),
      body: text(
        'Chúng tôi chỉ thu thập dữ liệu cần cho dịch vụ: vị trí khi bạn đặt xe, số điện thoại để tài xế liên hệ, lịch sử giao dịch của ví. Bạn có thể xóa tài khoản bất cứ lúc nào.',
        'We collect only what the service needs: your location when you book a ride, your phone number so the driver can call, your wallet history. You may delete your account at any time.',
      ),
      faq: [],
    },
    faq: {
      title: text('Câu hỏi thường gặp', 'Frequently asked questions'),
      body: text('Giải đáp nhanh về chuyến xe, đơn hàng, ví và hoàn tiền.', 'Quick answers about rides, orders, the wallet and refunds.'),
      faq: [
        faq(
          ['Hoàn tiền mất bao lâu?', 'How long does a refund take?'],
          ['Ví: ngay lập tức. Thẻ và cổng thanh toán: 3–5 ngày làm việc.', 'Wallet: at once. Cards and gateways: 3–5 working days.'],
        ),
        faq(
          ['Làm sao hủy chuyến xe?', 'How do I cancel a ride?'],
          [
            'Mở chuyến xe và chọn Hủy. Hủy sau khi tài xế đến có thể mất phí.',
            'Open the ride and tap Cancel. Cancelling after the driver arrives may cost a fee.',
          ],
        ),
        faq(
          ['Nạp tiền vào ví bằng cách nào?', 'How do I top up my wallet?'],
          ['Chọn Ví, Nạp tiền, rồi chọn VNPay hoặc MoMo.', 'Open Wallet, Top up, then choose VNPay or MoMo.'],
        ),
        faq(
          ['Quên mật khẩu thì làm gì?', 'I forgot my password'],
          ['Chọn Quên mật khẩu ở màn hình đăng nhập; mã được gửi qua email.', 'Tap Forgot password on the sign-in screen; a code is sent by email.'],
        ),
      ],
    },
  };
}

const DEMO_CONFIGS: Record<CmsSurface, AppConfigContent> = {
  CON: {
    minVersion: '1.0.0',
    latestVersion: '1.4.0',
    flags: { socialReels: true, assistant: false },
    maintenance: { active: false, message: null, until: null },
  },
  PAR: { minVersion: '1.0.0', latestVersion: '1.2.0', flags: { storeAds: true }, maintenance: { active: false, message: null, until: null } },
  DRV: { minVersion: '1.1.0', latestVersion: '1.3.0', flags: { cashPayouts: true }, maintenance: { active: false, message: null, until: null } },
};

export async function seedCms(ctx: SeedContext): Promise<void> {
  const { DEV_ADMIN: admin } = ctx.fixtures as { DEV_ADMIN: { id: string } };
  const change = { by: admin.id, now: ctx.now, note: 'demo content' };
  const schedule = (cities: string[], order: number) => ({ cities, startsAt: ctx.now, endsAt: null, order });
  const [banners, sections, pages] = [demoBanners(schedule), demoSections(schedule), demoPages()];
  const publishAll = async <C extends Record<string, unknown>>(publisher: Publisher<C>, contents: Record<string, C>) => {
    for (const [id, content] of Object.entries(contents)) {
      if (!(await publisher.get(id))) await publisher.create(id, content, change);
      await publisher.publish(id, change);
    }
  };
  await publishAll(bannerKind.publisher, banners);
  await publishAll(sectionKind.publisher, sections);
  await publishAll(pageKind.publisher, pages);
  for (const [surface, config] of Object.entries(DEMO_CONFIGS)) {
    // Stored by its first publish (a second run finds it published: nothing new).
    await appConfigs.publish(surface, { ...change, initial: () => config });
  }
  ctx.log(`seed: cms: ${Object.keys(banners).length} banners, ${Object.keys(sections).length} sections, ${Object.keys(pages).length} pages, 3 app configs`);
}
