import { defineMessages, notice } from '../../platform/kits/i18n';

/** What a message notice shows of a message: its words (as written), or what kind of message it is. */
export type PreviewPart = { text: string } | { label: 'DELETED' | 'AUDIO' | 'IMAGE' | 'LOCATION' };

const LABEL_VI = { DELETED: 'Tin nhắn đã bị xóa', AUDIO: 'Tin nhắn thoại', IMAGE: 'Ảnh', LOCATION: 'Vị trí' } as const;
const LABEL_EN = { DELETED: 'Message deleted', AUDIO: 'Voice message', IMAGE: 'Photo', LOCATION: 'Location' } as const;
const previewIn = (preview: PreviewPart, labels: typeof LABEL_VI | typeof LABEL_EN) => ('text' in preview ? preview.text : labels[preview.label]);
const senderIn = (p: { sender: string | null; group: string | null }, someone: string) => `${p.sender ?? someone}${p.group ? ` · ${p.group}` : ''}`;

// The chat module's texts for people (push and inbox): names and messages are people's words, as written.
export const CHAT_TEXTS = defineMessages({
  'chat.message': notice<{ sender: string | null; group: string | null; preview: PreviewPart }>({
    example: { sender: 'Lan', group: 'Nhóm đi làm', preview: { label: 'AUDIO' } },
    vi: (p) => ({ title: senderIn(p, 'Một người dùng'), body: previewIn(p.preview, LABEL_VI) }),
    en: (p) => ({ title: senderIn(p, 'Someone'), body: previewIn(p.preview, LABEL_EN) }),
  }),
  'call.incoming': notice<{ video: boolean }>({
    example: { video: true },
    vi: (p) => ({ title: 'Cuộc gọi đến', body: p.video ? 'Cuộc gọi video đến' : 'Cuộc gọi thoại đến' }),
    en: (p) => ({ title: 'Incoming call', body: p.video ? 'Incoming video call' : 'Incoming call' }),
  }),
  'call.missed': notice<{ busy: boolean }>({
    example: { busy: true },
    vi: (p) => ({ title: 'Cuộc gọi nhỡ', body: p.busy ? 'Bạn có một cuộc gọi nhỡ khi đang trong cuộc gọi khác' : 'Bạn có một cuộc gọi nhỡ' }),
    en: (p) => ({ title: 'Missed call', body: p.busy ? 'You missed a call while on another call' : 'You missed a call' }),
  }),
});
