// Integration tests go through the emulators (HTTP, Firestore transactions, bcrypt): allow them time.
jest.setTimeout(60_000);
