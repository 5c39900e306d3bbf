/** The mail port: a transport that sends one rendered mail, over SMTP or into the dev mailbox. */
export * from './mail-transport.js';
