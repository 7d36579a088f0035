// The demo merchants' menus (emulator only; merchants.seed-data.ts places the stores): Vietnamese dishes, drinks and
// groceries with option groups, a few items turned off or sold out, a few with counted stock.

type Choice = [key: string, name: string, priceDeltaVnd?: number];
type Group = { key: string; name: string; required: boolean; max: number; choices: Array<{ key: string; name: string; priceDeltaVnd: number }> };
export interface DemoItem {
  key: string;
  name: string;
  priceVnd: number;
  categoryKey: string;
  description?: string;
  optionGroups?: Group[];
  stock?: number;
  available?: boolean;
  requiresPrescription?: boolean;
}
export interface DemoMenu {
  sections: Array<{ key: string; name: string }>;
  items: DemoItem[];
}

const group = (key: string, name: string, required: boolean, max: number, choices: Choice[]): Group => ({
  key,
  name,
  required,
  max,
  choices: choices.map(([choice, label, priceDeltaVnd = 0]) => ({ key: choice, name: label, priceDeltaVnd })),
});
const item = (key: string, name: string, priceVnd: number, categoryKey: string, extra: Partial<DemoItem> = {}): DemoItem => ({
  key,
  name,
  priceVnd,
  categoryKey,
  ...extra,
});

const DRINKS_SECTION = { key: 'do-uong', name: 'Đồ uống' };
const ICED_TEA = item('tra-da', 'Trà đá', 3_000, 'do-uong');
const BOWL = group('size', 'Cỡ tô', true, 1, [
  ['thuong', 'Tô thường'],
  ['lon', 'Tô lớn', 10_000],
  ['dac-biet', 'Tô đặc biệt', 20_000],
]);
const PHO_EXTRAS = group('them', 'Thêm', false, 3, [
  ['bo', 'Thêm bò', 15_000],
  ['trung', 'Trứng chần', 5_000],
  ['hanh', 'Hành trần'],
]);
const CUP = group('size', 'Size', true, 1, [
  ['m', 'Size M'],
  ['l', 'Size L', 8_000],
]);
const SUGAR = group('duong', 'Độ ngọt', true, 1, [
  ['100', '100% đường'],
  ['70', '70% đường'],
  ['50', '50% đường'],
  ['0', 'Không đường'],
]);
const ICE = group('da', 'Đá', true, 1, [
  ['binh-thuong', 'Đá bình thường'],
  ['it', 'Ít đá'],
  ['khong', 'Không đá'],
]);
const TOPPINGS = group('topping', 'Topping', false, 3, [
  ['tc-den', 'Trân châu đen', 5_000],
  ['tc-trang', 'Trân châu trắng', 5_000],
  ['thach-dua', 'Thạch dừa', 5_000],
  ['pudding', 'Pudding trứng', 8_000],
]);

export const DEMO_MENUS: Record<string, DemoMenu> = {
  PHO: {
    sections: [{ key: 'pho-bo', name: 'Phở bò' }, { key: 'pho-ga', name: 'Phở gà' }, { key: 'mon-them', name: 'Món thêm' }, DRINKS_SECTION],
    items: [
      item('pho-tai', 'Phở bò tái', 55_000, 'pho-bo', {
        optionGroups: [BOWL, PHO_EXTRAS],
        description: 'Bánh phở mềm, bò tái chần, nước dùng hầm xương 12 tiếng',
      }),
      item('pho-tai-nam', 'Phở bò tái nạm', 60_000, 'pho-bo', { optionGroups: [BOWL, PHO_EXTRAS] }),
      item('pho-bo-vien', 'Phở bò viên', 55_000, 'pho-bo', { optionGroups: [BOWL, PHO_EXTRAS] }),
      item('pho-ga', 'Phở gà ta', 50_000, 'pho-ga', { optionGroups: [BOWL] }),
      item('quay', 'Quẩy giòn', 5_000, 'mon-them'),
      item('trung-chan', 'Trứng chần', 8_000, 'mon-them'),
      ICED_TEA,
      item('nuoc-sam', 'Nước sâm nhà nấu', 15_000, 'do-uong', { stock: 20 }),
    ],
  },
  COM_TAM: {
    sections: [{ key: 'com-tam', name: 'Cơm tấm' }, { key: 'canh', name: 'Canh' }, DRINKS_SECTION],
    items: [
      item('suon', 'Cơm tấm sườn nướng', 45_000, 'com-tam', {
        optionGroups: [
          group('them', 'Thêm', false, 3, [
            ['bi', 'Bì', 8_000],
            ['cha', 'Chả trứng', 10_000],
            ['op-la', 'Trứng ốp la', 7_000],
          ]),
          group('com', 'Cơm', false, 1, [['them-com', 'Thêm cơm', 5_000]]),
        ],
      }),
      item('suon-bi-cha', 'Cơm tấm sườn bì chả', 65_000, 'com-tam'),
      item('ga-nuong', 'Cơm gà nướng mật ong', 50_000, 'com-tam'),
      item('suon-cong', 'Sườn cọng đặc biệt', 85_000, 'com-tam', { stock: 10, description: 'Mỗi ngày chỉ có 10 phần' }),
      item('canh-chua', 'Canh chua cá lóc', 20_000, 'canh'),
      ICED_TEA,
    ],
  },
  BUN_BO: {
    sections: [{ key: 'bun', name: 'Bún' }, { key: 'mon-them', name: 'Món thêm' }, DRINKS_SECTION],
    items: [
      item('bun-bo-hue', 'Bún bò Huế', 55_000, 'bun', { optionGroups: [BOWL] }),
      item('bun-bo-gio', 'Bún bò giò heo', 65_000, 'bun', { optionGroups: [BOWL] }),
      item('bun-rieu', 'Bún riêu cua', 45_000, 'bun', { available: false, description: 'Chỉ bán buổi sáng' }),
      item('cha-cua', 'Chả cua', 15_000, 'mon-them'),
      item('huyet', 'Huyết', 5_000, 'mon-them'),
      ICED_TEA,
    ],
  },
  BUN_CHA: {
    sections: [{ key: 'bun-cha', name: 'Bún chả' }, { key: 'mon-them', name: 'Món thêm' }, DRINKS_SECTION],
    items: [
      item('bun-cha', 'Bún chả Hà Nội', 50_000, 'bun-cha', {
        optionGroups: [
          group('suat', 'Suất', true, 1, [
            ['thuong', 'Suất thường'],
            ['dac-biet', 'Suất đặc biệt', 20_000],
          ]),
        ],
      }),
      item('bun-cha-nem', 'Bún chả nem cua bể', 70_000, 'bun-cha'),
      item('nem-cua-be', 'Nem cua bể (1 chiếc)', 15_000, 'mon-them', { stock: 40 }),
      item('tra-da-ha-noi', 'Trà đá', 3_000, 'do-uong'),
    ],
  },
  BANH_MI: {
    sections: [{ key: 'banh-mi', name: 'Bánh mì' }, DRINKS_SECTION],
    items: [
      item('thit-nguoi', 'Bánh mì thịt nguội', 25_000, 'banh-mi', {
        optionGroups: [
          group('cay', 'Độ cay', true, 1, [
            ['khong', 'Không cay'],
            ['it', 'Ít cay'],
            ['nhieu', 'Cay nhiều'],
          ]),
          group('them', 'Thêm', false, 2, [
            ['pate', 'Pa tê', 5_000],
            ['trung', 'Trứng', 5_000],
            ['cha-lua', 'Chả lụa', 7_000],
          ]),
        ],
      }),
      item('op-la', 'Bánh mì ốp la', 20_000, 'banh-mi'),
      item('xiu-mai', 'Bánh mì xíu mại', 25_000, 'banh-mi'),
      item('sua-dau', 'Sữa đậu nành', 10_000, 'do-uong', { stock: 30 }),
    ],
  },
  TRA_SUA: {
    sections: [
      { key: 'tra-sua', name: 'Trà sữa' },
      { key: 'tra-trai-cay', name: 'Trà trái cây' },
    ],
    items: [
      item('tra-sua-tc', 'Trà sữa trân châu đường đen', 35_000, 'tra-sua', { optionGroups: [CUP, SUGAR, ICE, TOPPINGS] }),
      item('hong-tra-macchiato', 'Hồng trà macchiato', 42_000, 'tra-sua', { optionGroups: [CUP, SUGAR, ICE] }),
      item('tra-dao', 'Trà đào cam sả', 40_000, 'tra-trai-cay', { optionGroups: [CUP, SUGAR, ICE] }),
      item('tra-vai', 'Trà vải', 40_000, 'tra-trai-cay', { optionGroups: [CUP, SUGAR, ICE] }),
      item('tra-mang-cau', 'Trà mãng cầu', 45_000, 'tra-trai-cay', { available: false, description: 'Theo mùa' }),
    ],
  },
  CA_PHE: {
    sections: [
      { key: 'ca-phe', name: 'Cà phê' },
      { key: 'banh', name: 'Bánh' },
    ],
    items: [
      item('sua-da', 'Cà phê sữa đá', 25_000, 'ca-phe', { optionGroups: [CUP, SUGAR] }),
      item('bac-xiu', 'Bạc xỉu', 29_000, 'ca-phe', { optionGroups: [CUP] }),
      item('den-da', 'Cà phê đen đá', 20_000, 'ca-phe'),
      item('ca-phe-trung', 'Cà phê trứng', 35_000, 'ca-phe', { description: 'Lòng đỏ trứng đánh bông với sữa đặc' }),
      item('croissant', 'Bánh sừng bò', 25_000, 'banh', { stock: 12 }),
    ],
  },
  BAKERY: {
    sections: [
      { key: 'banh-ngot', name: 'Bánh ngọt' },
      { key: 'banh-kem', name: 'Bánh kem' },
    ],
    items: [
      item('bong-lan-trung-muoi', 'Bánh bông lan trứng muối', 45_000, 'banh-ngot', { stock: 8 }),
      item('su-kem', 'Bánh su kem (hộp 6 cái)', 40_000, 'banh-ngot', { stock: 30 }),
      item('banh-mi-hoa-cuc', 'Bánh mì hoa cúc', 85_000, 'banh-ngot', { stock: 0 }),
      item('banh-kem-sinh-nhat', 'Bánh kem sinh nhật', 250_000, 'banh-kem', {
        optionGroups: [
          group('co', 'Cỡ bánh', true, 1, [
            ['16cm', '16 cm'],
            ['20cm', '20 cm', 100_000],
          ]),
          group('nen', 'Kèm theo', false, 2, [
            ['nen', 'Nến số'],
            ['thiep', 'Thiệp chúc mừng', 10_000],
          ]),
        ],
      }),
    ],
  },
  GROCERY: {
    sections: [
      { key: 'rau-cu', name: 'Rau củ' },
      { key: 'thit-ca', name: 'Thịt cá' },
      { key: 'do-kho', name: 'Gạo và đồ khô' },
    ],
    items: [
      item('rau-muong', 'Rau muống (500g)', 15_000, 'rau-cu', { stock: 40 }),
      item('ca-chua', 'Cà chua Đà Lạt (1kg)', 30_000, 'rau-cu', { stock: 25 }),
      item('thit-ba-chi', 'Thịt ba chỉ (500g)', 75_000, 'thit-ca', { stock: 15 }),
      item('ca-basa', 'Phi lê cá basa (500g)', 55_000, 'thit-ca', { stock: 0 }),
      item('gao-st25', 'Gạo ST25 (5kg)', 180_000, 'do-kho', { stock: 12 }),
      item('nuoc-mam', 'Nước mắm Phú Quốc (500ml)', 45_000, 'do-kho', { stock: 30 }),
      item('trung-ga', 'Trứng gà (10 quả)', 32_000, 'do-kho', { stock: 20 }),
    ],
  },
  CONVENIENCE: {
    sections: [DRINKS_SECTION, { key: 'an-vat', name: 'Ăn vặt' }, { key: 'do-dung', name: 'Đồ dùng' }],
    items: [
      item('nuoc-suoi', 'Nước suối 500ml', 6_000, 'do-uong', { stock: 100 }),
      item('nuoc-ngot', 'Nước ngọt có ga lon 330ml', 12_000, 'do-uong', { stock: 48 }),
      item('mi-goi', 'Mì gói tôm chua cay', 4_500, 'an-vat', { stock: 60 }),
      item('snack', 'Snack khoai tây', 12_000, 'an-vat', { stock: 35 }),
      item('khan-giay', 'Khăn giấy ướt', 15_000, 'do-dung', { stock: 0 }),
      item('ban-chai', 'Bàn chải đánh răng', 20_000, 'do-dung', { stock: 10 }),
    ],
  },
  FRUIT: {
    sections: [
      { key: 'trai-cay', name: 'Trái cây' },
      { key: 'gio-qua', name: 'Giỏ quà' },
    ],
    items: [
      item('xoai-cat', 'Xoài cát Hòa Lộc (1kg)', 75_000, 'trai-cay', { stock: 20 }),
      item('sau-rieng', 'Sầu riêng Ri6 (1kg)', 120_000, 'trai-cay', { stock: 5 }),
      item('thanh-long', 'Thanh long ruột đỏ (1kg)', 35_000, 'trai-cay', { stock: 30 }),
      item('gio-trai-cay', 'Giỏ trái cây biếu', 350_000, 'gio-qua', {
        optionGroups: [
          group('co', 'Cỡ giỏ', true, 1, [
            ['nho', 'Giỏ nhỏ'],
            ['lon', 'Giỏ lớn', 200_000],
          ]),
        ],
      }),
    ],
  },
  FLOWERS: {
    sections: [
      { key: 'bo-hoa', name: 'Bó hoa' },
      { key: 'lang-hoa', name: 'Lẵng hoa' },
    ],
    items: [
      item('hoa-hong', 'Bó hoa hồng', 350_000, 'bo-hoa', {
        optionGroups: [
          group('mau', 'Màu hoa', true, 1, [
            ['do', 'Hồng đỏ'],
            ['phan', 'Hồng phấn'],
            ['trang', 'Hồng trắng'],
          ]),
          group('thiep', 'Thiệp', false, 1, [['thiep', 'Thiệp viết tay', 20_000]]),
        ],
      }),
      item('huong-duong', 'Bó hoa hướng dương', 280_000, 'bo-hoa', { stock: 6 }),
      item('khai-truong', 'Lẵng hoa khai trương', 1_200_000, 'lang-hoa', { stock: 2 }),
    ],
  },
  HEALTH: {
    sections: [
      { key: 'vitamin', name: 'Vitamin' },
      { key: 'thuoc', name: 'Thuốc' },
      { key: 'cham-soc', name: 'Chăm sóc' },
    ],
    items: [
      item('vitamin-c', 'Vitamin C 500mg (lọ 100 viên)', 30_000, 'vitamin', { stock: 40 }),
      item('prospan', 'Siro ho Prospan 100ml', 85_000, 'thuoc', { stock: 15 }),
      item('amoxicillin', 'Amoxicillin 500mg (vỉ 10 viên)', 60_000, 'thuoc', { stock: 10, requiresPrescription: true }),
      item('nuoc-muoi', 'Nước muối sinh lý 500ml', 5_000, 'cham-soc', { stock: 50 }),
      item('khau-trang', 'Khẩu trang y tế (hộp 50 cái)', 35_000, 'cham-soc', { stock: 0 }),
    ],
  },
};
