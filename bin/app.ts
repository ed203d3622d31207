/** The CDK entry: reads the stack configuration from context and instantiates the stack. */
import { App } from 'aws-cdk-lib';
import { MailStack } from '../lib/mail-stack.ts';
import { readStackConfig } from '../lib/config.ts';

const app = new App();
const config = readStackConfig((key) => app.node.tryGetContext(key));
new MailStack(app, config.stackName, { config });
app.synth();
