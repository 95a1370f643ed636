import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum RipRule {
  rate = 'rate',
  whole_file = 'whole_file',
  keys = 'keys',
  two_addresses = 'two_addresses',
}
registerEnumType(RipRule, {
  name: 'RipRule',
  description: 'Which rip detection rule a session or API key broke.',
  valuesConfig: {
    rate: { description: 'Audio fetched faster than the allowed multiple of real time over the window.' },
    whole_file: { description: 'Most of a long file fetched sooner than it plays at the allowed speed.' },
    keys: { description: 'More chapter keys fetched in the window than allowed.' },
    two_addresses: { description: 'The session was used from two client addresses at once (device sessions only).' },
  },
});

@ObjectType({
  description:
    "A device session or API key suspected of ripping audio: throttled, audited, and counted towards a lock of the session's account, or towards revoking the key.",
})
export class RipAlert {
  @Field(() => ID, { description: "The audit log entry's id." }) id!: string;
  @Field(() => ID, { nullable: true, description: 'The account; null once it is deleted.' }) userId!: string | null;
  @Field(() => String, { nullable: true, description: "The account's email." }) email!: string | null;
  @Field(() => ID, { nullable: true, description: 'The device session that was throttled; null for an API key.' })
  deviceSessionId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The API key that was throttled; null for a device session.' })
  apiKeyId!: string | null;
  @Field(() => RipRule, { description: 'The rule it broke.' }) rule!: RipRule;
  @Field(() => ID, { nullable: true, description: 'The file it was fetching, when one.' }) fileId!: string | null;
  @Field(() => Float, { description: 'Audio fetched over the window, as a multiple of real time.' }) speed!: number;
  @Field(() => Int, { description: 'The window the speed is measured over, in seconds.' }) windowSeconds!: number;
  @Field(() => [String], { description: 'The client addresses the session or key was used from.' })
  addresses!: string[];
  @Field({ description: "Whether this offence locked the account (a device session's repeated offences do)." })
  accountLocked!: boolean;
  @Field({ description: "Whether this offence revoked the API key (a key's repeated offences do)." })
  apiKeyRevoked!: boolean;
  @Field({ description: 'When it was detected.' }) at!: Date;
}
