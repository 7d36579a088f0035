// Integration tests go through the emulators (HTTP, Firestore transactions, bcrypt): allow them time.
jest.setTimeout(120_000); // past waitFor's 60 s (helpers/wait.ts)
